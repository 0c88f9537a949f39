/**
 * Typed domain errors. Handlers map each kind to an HTTP status; the message is
 * user-facing and safe to show.
 */
export type DomainErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  /** The same idempotency key with a different request (422). */
  | 'idempotency-mismatch'
  | 'quota'
  | 'rate-limited'
  | 'payment-required'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (message: string, details?: Record<string, unknown>) =>
  new DomainError('validation', message, details);
export const notFound = (message: string) => new DomainError('not-found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const unauthorized = (message: string) => new DomainError('unauthorized', message);
