// The one formatter, shared with the share documents written on the server (decision 026).
export { formatTime } from '@tunesmith/shared/track-text';

/** A price in US dollars: whole amounts without cents ($9), others with two decimals ($2.08). */
export function formatPrice(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}

// Dates are written from the Date's own local-time fields rather than with Intl: a page's first
// Intl date format loads the locale's data and builds its pattern, tens of milliseconds of a
// phone's main thread while the page it renders waits. The words are the en-US ones Intl gives.
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
const SHORT_MONTHS = MONTHS.map((month) => month.slice(0, 3));
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The date, or null for an unreadable value. */
function readDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date as `Mar 15, 2024` in the reader's time zone ('' for an unreadable value). */
export function formatDate(iso: string): string {
  const date = readDate(iso);
  return date ? `${SHORT_MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}` : '';
}

/** A date as `Monday, January 8` in the reader's time zone ('' for an unreadable value). */
export function formatWeekdayDate(iso: string): string {
  const date = readDate(iso);
  return date ? `${WEEKDAYS[date.getDay()]}, ${MONTHS[date.getMonth()]} ${date.getDate()}` : '';
}
