/** Seconds as m:ss (0:00 for unknown or negative values). */
export function formatTime(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}`;
}

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
