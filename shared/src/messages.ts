/**
 * User-facing strings shared by the API and the SPA, verbatim from the
 * specification's error catalogue, so the two cannot drift.
 */
export const messages = {
  notImplemented: 'Not implemented yet',
  notFound: 'Not found',
  internalError: 'Something went wrong. Please try again.',
  serviceUnavailable: 'The service is busy right now. Please try again in a moment.',
  invalidJson: 'Request body must be valid JSON',
  unsupportedMediaType: 'Request body must be JSON (Content-Type: application/json)',
  methodNotAllowed: 'Method not allowed',

  contact: {
    sent: "Message sent successfully! We'll get back to you within 24 hours.",
    failedTitle: 'Failed to send message',
    failedText: 'Please try again later.',
    nameRequired: 'Name is required',
    emailInvalid: 'Please enter a valid email address',
    subjectRequired: 'Subject is required',
    messageRequired: 'Message is required',
  },
  unauthorized: {
    title: 'Unauthorized',
    text: 'You are logged out. Logging in again...',
  },
  share: {
    copiedTitle: 'Link Copied!',
    copiedText: 'Track link has been copied to your clipboard.',
    failedTitle: 'Share Failed',
    failedText: 'Failed to copy link to clipboard.',
  },
  pricing: {
    configErrorTitle: 'Configuration Error',
    configErrorText: (cycle: string) =>
      `This plan is not configured for ${cycle} billing. Please contact support.`,
  },
} as const;
