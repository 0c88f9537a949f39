// The one formatter of each, shared with the documents written on the server (decisions 026 and 038).
export { formatPrice } from '@tunesmith/shared/plan-values';
export { formatDate, formatTime } from '@tunesmith/shared/track-text';

// Dates are written from the Date's own local-time fields rather than with Intl (as formatDate is:
// shared/src/track-text.ts). The words are the en-US ones Intl gives.
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The date, or null for an unreadable value. */
function readDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date as `Monday, January 8` in the reader's time zone ('' for an unreadable value). */
export function formatWeekdayDate(iso: string): string {
  const date = readDate(iso);
  return date ? `${WEEKDAYS[date.getDay()]}, ${MONTHS[date.getMonth()]} ${date.getDate()}` : '';
}
