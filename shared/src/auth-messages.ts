/*
 * The account screens' messages, free of zod (the schemas are in auth.ts), so
 * a screen that shows them does not load the schema library with them.
 */

/** Messages of the account screens and calls, verbatim from the specification where it has them. */
export const authMessages = {
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  passwordMin: 'Password must be at least 8 characters',
  confirmRequired: 'Please confirm your password',
  passwordsDontMatch: "Passwords don't match",
  invalidCredentials: 'Invalid email or password',
  verifyEmailFirst: 'Please verify your email before signing in.',
  emailTaken: 'An account with this email already exists.',
  registered: 'Registration successful. Please check your email to verify your account.',
  verified: 'Your email has been verified. You can now sign in.',
  verificationExpired: 'This verification link has expired or is no longer valid.',
  resendSent: 'If an account with that email needs verification, a new link is on its way.',
  resetRequested: "If an account with that email exists, we've sent password reset instructions.",
  resetDone: 'Your password has been reset. You can now sign in with your new password.',
  resetInvalid: 'This password reset link is invalid or has expired.',
  notSignedIn: 'Unauthorized',
  noChanges: 'No changes made',
  emailUpdated: 'Email updated successfully',
  emailChangeSentTitle: 'Check your new inbox',
  emailChangeSent: (to: string) =>
    `We sent a confirmation link to ${to}. Your email changes when you follow it; until then you sign in with your current address.`,
  emailChanged: (to: string) => `Your email is now ${to}. Sign in with it from now on.`,
  passwordUpdated: 'Password updated successfully',
  currentPasswordWrong: 'Current password is incorrect',
  passwordMismatch: 'Password mismatch',
  passwordTooShort: 'Password too short',
  currentPasswordRequired: 'Current password is required',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  csrf: 'This request was refused: it did not come from this site.',
  // admin (spec 2)
  usernameRequired: 'Username is required',
  adminInvalidCredentials: 'Invalid credentials',
  // The spec's 6 characters became 12 (decision 036); the sentences are the spec's.
  adminPasswordMin: 'New password must be at least 12 characters',
  adminUserPasswordMin: 'Password must be at least 12 characters',
  adminPasswordsDontMatch: 'New passwords do not match',
  adminPasswordChanged: 'Password changed. All admin sessions have been signed out.',
  loggedOut: 'Logged out',
  // The admin's second factor (decision 036), in the spec's voice.
  codeRequired: 'Code is required',
  codeInvalid: 'Enter the 6-digit code from your authenticator app',
  codeWrong: 'Invalid code',
  codeUsed: 'This code has already been used. Wait for the next one and try again.',
  signInExpired: 'Your sign-in has expired. Please sign in again.',
} as const;
