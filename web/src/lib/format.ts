// The one formatter, shared with the share documents written on the server (decision 026).
export { formatTime } from '@tunesmith/shared/track-text';

/** A price in US dollars: whole amounts without cents ($9), others with two decimals ($2.08). */
export function formatPrice(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}

/** A date as `Mar 15, 2024` in the reader's time zone ('' for an unreadable value). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A date as `Monday, January 8` in the reader's time zone ('' for an unreadable value). */
export function formatWeekdayDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' });
}
