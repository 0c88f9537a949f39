/**
 * Reports' words and limits (decision 061), apart from `community.ts` so the groups that only refuse a
 * suspended account (sign-in, sessions, API keys) do not carry the community's schemas.
 */
import type { ReportReason } from './community';
/** How many reports one user may send in {@link REPORT_WINDOW_SECONDS}. */
export const REPORTS_PER_WINDOW = 10;
export const REPORT_WINDOW_SECONDS = 3600;

/** The reasons as the report dialog names them. */
export const reportReasonLabels: Record<ReportReason, string> = {
  spam: 'Spam or misleading',
  harassment: 'Harassment or bullying',
  hate: 'Hateful content',
  sexual: 'Sexual content',
  violence: 'Violence or threats',
  copyright: 'Copyright infringement',
  impersonation: 'Impersonation',
  other: 'Something else',
};

export const reportMessages = {
  reported: 'Thanks. An administrator will look at your report.',
  ownContent: 'You cannot report your own content.',
  tooMany: 'You have sent many reports in a short time. Try again in an hour.',
  trackNotFound: 'Track not found',
  profileNotFound: 'Creator not found',
  reportNotFound: 'Report not found',
  notRestorable: 'Only a report whose subject was hidden or whose owner was suspended can be restored.',
  alreadyResolved: 'This report has already been resolved.',
  accountSuspended: 'This account is suspended.',
} as const;
