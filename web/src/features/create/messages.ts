/**
 * Toast texts of the Create page, verbatim from the specification's error
 * catalogue and success toasts (spec 1). Validation texts come from
 * `generationMessages` in `@tunesmith/shared/generations`.
 */
export const createMessages = {
  generatedTitle: 'Music Generated!',
  generationFailedTitle: 'Generation Failed',
  statusErrorTitle: 'Error',
  statusError: 'Failed to check generation status.',
  lyricsFailedTitle: 'Generation failed',
  lyricsFailed: 'Failed to generate lyrics. Please try again.',
  lyricsAddedTitle: 'Lyrics added',
  copiedTitle: 'Copied',
  copyFailedTitle: 'Copy failed',
  copyFailed: 'Failed to copy lyrics to clipboard.',
} as const;
