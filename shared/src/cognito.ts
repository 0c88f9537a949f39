/**
 * Cognito's user APIs that a user's own access token (or only the client id)
 * may call, that the app never calls, and that no pool or client setting
 * refuses. On AWS the pools' web ACL blocks them (infra/lib/auth.ts); locally
 * the Cognito proxy answers them as Cognito answers that block (decision 014).
 * DeleteUser would take a person's identity away and leave their profile,
 * tracks and subscription behind; ChangePassword would skip the app's sign-out
 * of every other session; the attribute-verification, MFA and confirmation
 * calls serve nothing here.
 */
export const BLOCKED_COGNITO_OPERATIONS = [
  'DeleteUser',
  'ChangePassword',
  'GetUserAttributeVerificationCode',
  'VerifyUserAttribute',
  'SetUserMFAPreference',
  'SetUserSettings',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'ConfirmSignUp',
  'ResendConfirmationCode',
] as const;
