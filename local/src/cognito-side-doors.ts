import { BLOCKED_COGNITO_OPERATIONS } from '@tunesmith/shared/cognito';
/**
 * What Cognito refuses, under a pool's and an app client's settings, to a
 * caller holding only a client id or a user's own access token: the settings
 * cognito-local stores but does not enforce (docs/decisions/014-cognito-side-doors.md).
 * The Cognito proxy asks {@link refusalOf} before it forwards such a call, so
 * the local cloud refuses what AWS refuses, with Cognito's error names and
 * messages, and nothing more.
 */

/** A Cognito error as the service answers it: `__type` and `message`. */
export interface Refusal {
  type: string;
  message: string;
}

/** The settings of a pool that decide a refusal (as DescribeUserPool answers them). */
export interface PoolSettings {
  AdminCreateUserConfig?: { AllowAdminCreateUserOnly?: boolean };
  AccountRecoverySetting?: { RecoveryMechanisms?: { Name?: string }[] };
}

/** The settings of an app client that decide a refusal (as DescribeUserPoolClient answers them). */
export interface ClientSettings {
  ExplicitAuthFlows?: string[];
  WriteAttributes?: string[];
}

/**
 * The user APIs the stack's web ACL blocks before Cognito sees them
 * (shared/src/cognito.ts, the list infra/lib/auth.ts gives the web ACL).
 * Locally the proxy answers them as Cognito answers a web ACL's block.
 */
export const webAclBlocked: readonly string[] = BLOCKED_COGNITO_OPERATIONS;

/** Cognito's answer to a call its pool's web ACL blocked. */
export const webAclBlock: Refusal = {
  type: 'ForbiddenException',
  message: 'Request not allowed due to WAF block.',
};

/** The operations that carry a client id or an access token and whose refusal depends on settings. */
export const guardedOperations = [
  'SignUp',
  'InitiateAuth',
  'AdminInitiateAuth',
  'ForgotPassword',
  'UpdateUserAttributes',
] as const;
export type GuardedOperation = (typeof guardedOperations)[number];

export const isGuarded = (operation: string): operation is GuardedOperation =>
  (guardedOperations as readonly string[]).includes(operation);

/** Operations that take the access token rather than a client id (the client is the token's `client_id`). */
export const takesAccessToken = (operation: GuardedOperation): boolean =>
  operation === 'UpdateUserAttributes';

/** Cognito's flows when a client names none (API reference, CreateUserPoolClient ExplicitAuthFlows). */
const DEFAULT_FLOWS = ['ALLOW_USER_SRP_AUTH', 'ALLOW_CUSTOM_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'];

/** The client setting each AuthFlow needs, per operation. */
const flowSetting: Record<'InitiateAuth' | 'AdminInitiateAuth', Record<string, string>> = {
  InitiateAuth: {
    USER_PASSWORD_AUTH: 'ALLOW_USER_PASSWORD_AUTH',
    USER_SRP_AUTH: 'ALLOW_USER_SRP_AUTH',
    CUSTOM_AUTH: 'ALLOW_CUSTOM_AUTH',
    USER_AUTH: 'ALLOW_USER_AUTH',
    REFRESH_TOKEN_AUTH: 'ALLOW_REFRESH_TOKEN_AUTH',
    REFRESH_TOKEN: 'ALLOW_REFRESH_TOKEN_AUTH',
  },
  AdminInitiateAuth: {
    ADMIN_USER_PASSWORD_AUTH: 'ALLOW_ADMIN_USER_PASSWORD_AUTH',
    ADMIN_NO_SRP_AUTH: 'ALLOW_ADMIN_USER_PASSWORD_AUTH',
    USER_SRP_AUTH: 'ALLOW_USER_SRP_AUTH',
    CUSTOM_AUTH: 'ALLOW_CUSTOM_AUTH',
    USER_AUTH: 'ALLOW_USER_AUTH',
    REFRESH_TOKEN_AUTH: 'ALLOW_REFRESH_TOKEN_AUTH',
    REFRESH_TOKEN: 'ALLOW_REFRESH_TOKEN_AUTH',
  },
};

const attributeNames = (input: Record<string, unknown>): string[] => {
  const attributes = input.UserAttributes;
  return Array.isArray(attributes)
    ? attributes.map((attribute) => String((attribute as { Name?: unknown })?.Name ?? ''))
    : [];
};

/**
 * Cognito's refusal of `operation` with `input` under these settings, or
 * undefined when Cognito would go on to carry it out (it may still fail for
 * other reasons, which cognito-local answers itself).
 */
export function refusalOf(
  operation: GuardedOperation,
  input: Record<string, unknown>,
  pool: PoolSettings,
  client: ClientSettings,
): Refusal | undefined {
  switch (operation) {
    case 'SignUp':
      return pool.AdminCreateUserConfig?.AllowAdminCreateUserOnly
        ? { type: 'NotAuthorizedException', message: 'SignUp is not permitted for this user pool' }
        : undefined;
    case 'InitiateAuth':
    case 'AdminInitiateAuth': {
      const flow = String(input.AuthFlow ?? '');
      const needs = flowSetting[operation][flow];
      if (!needs)
        return { type: 'InvalidParameterException', message: 'Initiate Auth method not supported.' };
      const allowed = client.ExplicitAuthFlows?.length ? client.ExplicitAuthFlows : DEFAULT_FLOWS;
      return allowed.includes(needs)
        ? undefined
        : { type: 'InvalidParameterException', message: `${flow} flow not enabled for this client` };
    }
    case 'ForgotPassword': {
      const mechanisms = pool.AccountRecoverySetting?.RecoveryMechanisms ?? [];
      const adminOnly = mechanisms.length > 0 && mechanisms.every((m) => m.Name === 'admin_only');
      return adminOnly
        ? { type: 'NotAuthorizedException', message: 'User password cannot be reset in the current state.' }
        : undefined;
    }
    case 'UpdateUserAttributes': {
      // An unset or empty list lets a client write every standard attribute.
      const writable = client.WriteAttributes ?? [];
      if (writable.length === 0) return undefined;
      return attributeNames(input).every((name) => writable.includes(name))
        ? undefined
        : { type: 'NotAuthorizedException', message: 'A client attempted to write unauthorized attribute' };
    }
  }
}
