/**
 * Cognito's user APIs that a user's own access token (or only the client id)
 * may call, that change an account, that the app never calls, and that no pool
 * or client setting is documented to refuse. On AWS the pools' web ACL blocks
 * them (infra/lib/auth.ts); locally the Cognito proxy answers them as Cognito
 * answers that block (decision 014). DeleteUser would take a person's identity
 * away and leave their profile, tracks and subscription behind; ChangePassword
 * would skip the app's sign-out of every other session; DeleteUserAttributes
 * may not be held to the client's write attributes; the attribute-
 * verification, MFA-preference, device, passkey and confirmation calls serve
 * nothing here (device tracking is off and the pools' plan has no passkeys,
 * but neither is documented to refuse every one of these calls).
 *
 * AssociateSoftwareToken and VerifySoftwareToken are not on the list: the API
 * calls them (with a sign-in's session, never a browser's) to set up an
 * administrator's authenticator, and the web ACL cannot tell a session from a
 * token by the header. The user pool refuses them itself (its software-token
 * MFA is off); decision 036 says what they allow with an admin's own token.
 */
export const BLOCKED_COGNITO_OPERATIONS = [
  'DeleteUser',
  'ChangePassword',
  'DeleteUserAttributes',
  'GetUserAttributeVerificationCode',
  'VerifyUserAttribute',
  'SetUserMFAPreference',
  'SetUserSettings',
  'ConfirmSignUp',
  'ResendConfirmationCode',
  'ConfirmDevice',
  'UpdateDeviceStatus',
  'ForgetDevice',
  'StartWebAuthnRegistration',
  'CompleteWebAuthnRegistration',
  'DeleteWebAuthnCredential',
] as const;
