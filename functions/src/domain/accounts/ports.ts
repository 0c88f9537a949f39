/**
 * What the account services need from the outside world. Adapters implement
 * these with Cognito, DynamoDB and SES; tests with in-memory fakes.
 */

export interface Tokens {
  accessToken: string;
  /** Absent when a refresh answers with the old refresh token still valid. */
  refreshToken?: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
}

/**
 * What a pool that asks for a second factor answers a right password with
 * (the admin pool, decision 036): no tokens yet, only the step that comes next.
 */
export interface SecondFactorChallenge {
  /** `setup`: the identity has no authenticator yet; `code`: its authenticator's code is asked for. */
  step: 'setup' | 'code';
  /** The pool's state of this sign-in, to answer the step with; it never leaves the server. */
  session: string;
  /** The identity's username as the pool spells it (sign-in names are case-insensitive). */
  username: string;
}

export type SignInResult =
  | { ok: true; tokens: Tokens }
  | { ok: true; secondFactor: SecondFactorChallenge }
  | { ok: false; reason: 'invalid-credentials' | 'not-confirmed' };

/** The answer to a second-factor step: tokens, or why not. */
export type SecondFactorResult =
  | { ok: true; tokens: Tokens }
  /**
   * `wrong-code`: the step stands and may be answered again; `used-code`: a
   * right code, but taken already (each is taken once), so the next one will
   * do; `expired`: the sign-in must start over.
   */
  | { ok: false; reason: 'wrong-code' | 'used-code' | 'expired' };

export interface VerifiedToken {
  /** The identity's stable id (Cognito `sub`). */
  subject: string;
  /** The sign-in name (admin pool: the username). */
  username: string;
  /** Epoch seconds the token was issued. */
  issuedAt: number;
  /** Epoch seconds the token expires. */
  expiresAt: number;
}

/**
 * Access tokens ended before they expire (a logout), by their hash; each is
 * remembered until it would have expired anyway.
 */
export interface RevokedSessions {
  revoke(tokenHash: string, expiresAt: number): Promise<void>;
  isRevoked(tokenHash: string): Promise<boolean>;
}

/**
 * What recognising a session reads about a verified access token, together:
 * whether the token was ended (see {@link RevokedSessions}, by its hash) and
 * the account its claims name (undefined when there is none). The table
 * answers both in one request (decision 041).
 */
export interface SessionReads<P> {
  read(tokenHash: string, claims: VerifiedToken): Promise<{ revoked: boolean; principal: P | undefined }>;
}

/** A credential store: one per pool (users, admins). */
export interface IdentityProvider {
  /** Creates an unconfirmed identity. Throws a `conflict` DomainError if the name is taken. */
  createUser(input: { username: string; email?: string; password: string }): Promise<{ subject: string }>;
  /** Marks the identity's sign-up confirmed and its email verified. */
  confirmUser(subject: string, email: string): Promise<void>;
  /** Checks the password; a pool that asks for a second factor answers with the step that comes next. */
  signIn(username: string, password: string): Promise<SignInResult>;
  /**
   * Starts setting up an authenticator in the `setup` step of a sign-in: the
   * new key (base32) to show, and the session to finish with.
   */
  startAuthenticatorSetup(session: string): Promise<{ secret: string; session: string }>;
  /**
   * Checks the new authenticator's first code, keeps it as the identity's
   * second factor and finishes the sign-in.
   */
  finishAuthenticatorSetup(input: {
    session: string;
    username: string;
    code: string;
  }): Promise<SecondFactorResult>;
  /** Answers the `code` step of a sign-in with the authenticator's code. */
  answerSecondFactor(input: { session: string; username: string; code: string }): Promise<SecondFactorResult>;
  /** New tokens from a refresh token, or undefined when it is no longer valid. */
  refresh(refreshToken: string): Promise<Tokens | undefined>;
  /** The claims of a valid, unexpired access token of this pool, else undefined. */
  verifyAccessToken(accessToken: string): Promise<VerifiedToken | undefined>;
  revokeRefreshToken(refreshToken: string): Promise<void>;
  setPassword(subject: string, password: string): Promise<void>;
  updateEmail(subject: string, email: string): Promise<void>;
  /** Revokes every refresh token of the identity (by subject or username); none left when it is gone. */
  signOutEverywhere(subject: string): Promise<void>;
  /** Deletes the identity (by subject or username), if it is there. */
  deleteUser(subject: string): Promise<void>;
}

export type TokenPurpose = 'verify-email' | 'reset-password' | 'change-email';

/** Single-use tokens we issue by mail. Only a hash of each token is stored. */
export interface OneTimeTokens {
  /** Stores the hash of a token for `userId` until `expiresAt`, with what the link is for (`data`). */
  save(
    purpose: TokenPurpose,
    tokenHash: string,
    userId: string,
    expiresAt: number,
    data?: string,
  ): Promise<void>;
  /** Removes and returns the record atomically, so a token works once. */
  consume(
    purpose: TokenPurpose,
    tokenHash: string,
  ): Promise<{ userId: string; expiresAt: number; data?: string } | undefined>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Fixed-window counters. `hit` returns false once `limit` is exceeded in the window. */
/** Fixed-window counters. */
export interface RateLimiter {
  /** Counts one attempt unless the window already holds `limit`; false when it did. */
  hit(key: string, limit: number, windowSeconds: number): Promise<boolean>;
  /** What the current window holds. */
  count(key: string, windowSeconds: number): Promise<number>;
  /** Counts one, whatever the window holds. */
  add(key: string, windowSeconds: number): Promise<void>;
}

/** Random tokens and their hashes, so domain code needs no crypto module. */
export interface Secrets {
  /** A fresh random token (32 bytes, URL-safe). */
  newToken(): string;
  /** The hex SHA-256 of a token: what is stored. */
  hash(token: string): string;
}

export interface Clock {
  now(): Date;
}
