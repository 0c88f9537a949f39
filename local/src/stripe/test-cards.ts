/**
 * Stripe's test card numbers, as the embedded Stripe understands them, and
 * the checks the hosted card field makes (with Stripe's own messages).
 */

/** What a saved card does when charged. */
export type CardBehaviour = 'pays' | 'declines';

export interface Card {
  brand: 'visa' | 'mastercard' | 'amex' | 'unknown';
  last4: string;
  expMonth: number;
  expYear: number;
  /** How later charges go (a card may be saved yet decline every charge). */
  behaviour: CardBehaviour;
}

export type CardCheck =
  | { ok: true; card: Card }
  | { ok: false; field: 'number' | 'expiry' | 'cvc'; code: string; message: string };

export const cardMessages = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryYearPast: "Your card's expiration year is in the past.",
  expiryPast: "Your card's expiration date is in the past.",
  cvcIncomplete: "Your card's security code is incomplete.",
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
} as const;

/** Cards whose attaching already fails (Stripe checks them when they are saved or first charged). */
const REFUSED_AT_ONCE: Record<string, { code: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', message: cardMessages.declined },
  '4000000000009995': { code: 'card_declined', message: cardMessages.insufficientFunds },
};
/** Saved fine, but every charge is declined: how a renewal fails. */
const DECLINES_LATER = new Set(['4000000000000341']);
/** Cards that pay. */
const PAYS = new Set(['4242424242424242', '4000056655665556', '5555555555554444', '378282246310005']);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const brandOf = (digits: string): Card['brand'] =>
  digits.startsWith('4')
    ? 'visa'
    : /^5[1-5]/.test(digits)
      ? 'mastercard'
      : /^3[47]/.test(digits)
        ? 'amex'
        : 'unknown';

/**
 * Checks a card as typed (number, `MM / YY`, CVC) at `now` (epoch seconds).
 * A number that is well formed but refused outright (0002, 9995, or any
 * number that is not a test card) fails with the decline message.
 */
export function checkCard(input: { number: string; expiry: string; cvc: string }, now: number): CardCheck {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) {
    return {
      ok: false,
      field: 'number',
      code: digits.length === 0 || /^\d+$/.test(digits) ? 'incomplete_number' : 'invalid_number',
      message: /^\d*$/.test(digits) ? cardMessages.numberIncomplete : cardMessages.numberInvalid,
    };
  }
  if (!luhn(digits))
    return { ok: false, field: 'number', code: 'invalid_number', message: cardMessages.numberInvalid };

  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  const month = Number(expiry?.[1]);
  if (!expiry || month < 1 || month > 12) {
    return { ok: false, field: 'expiry', code: 'incomplete_expiry', message: cardMessages.expiryIncomplete };
  }
  const yearText = expiry[2] as string;
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const today = new Date(now * 1000);
  const thisYear = today.getUTCFullYear();
  if (year < thisYear)
    return {
      ok: false,
      field: 'expiry',
      code: 'invalid_expiry_year_past',
      message: cardMessages.expiryYearPast,
    };
  if (year === thisYear && month < today.getUTCMonth() + 1) {
    return {
      ok: false,
      field: 'expiry',
      code: 'invalid_expiry_month_past',
      message: cardMessages.expiryPast,
    };
  }
  if (!/^\d{3,4}$/.test(input.cvc.trim())) {
    return { ok: false, field: 'cvc', code: 'incomplete_cvc', message: cardMessages.cvcIncomplete };
  }

  const refused = REFUSED_AT_ONCE[digits];
  if (refused) return { ok: false, field: 'number', ...refused };
  const behaviour: CardBehaviour | undefined = PAYS.has(digits)
    ? 'pays'
    : DECLINES_LATER.has(digits)
      ? 'declines'
      : undefined;
  if (!behaviour)
    return { ok: false, field: 'number', code: 'card_declined', message: cardMessages.declined };
  return {
    ok: true,
    card: { brand: brandOf(digits), last4: digits.slice(-4), expMonth: month, expYear: year, behaviour },
  };
}
