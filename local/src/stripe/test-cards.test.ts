import { describe, expect, it } from 'vitest';
import { cardMessages, checkCard } from './test-cards';

const NOW = Date.UTC(2026, 10, 24) / 1000;
const card = (number: string, expiry = '12 / 34', cvc = '123') => checkCard({ number, expiry, cvc }, NOW);

describe('the hosted card field', () => {
  it('saves the paying test cards with brand, last four and expiry', () => {
    expect(card('4242 4242 4242 4242')).toEqual({
      ok: true,
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, behaviour: 'pays' },
    });
    expect(card('5555-5555-5555-4444', '01/2027')).toMatchObject({
      ok: true,
      card: { brand: 'mastercard', expYear: 2027, behaviour: 'pays' },
    });
  });

  it('saves 4000 0000 0000 0341 but marks it to decline every charge', () => {
    expect(card('4000 0000 0000 0341')).toMatchObject({ ok: true, card: { behaviour: 'declines' } });
  });

  it.each([
    ['4000 0000 0000 0002', cardMessages.declined],
    ['4000 0000 0000 9995', cardMessages.insufficientFunds],
    // Well formed but not a test card: Stripe's test mode declines it.
    ['4111 1111 1111 1111', cardMessages.declined],
  ])('refuses %s with "%s"', (number, message) => {
    expect(card(number)).toMatchObject({ ok: false, field: 'number', message });
  });

  it.each([
    [{ number: '4242 4242' }, 'number', cardMessages.numberIncomplete],
    [{ number: '4242 4242 4242 4241' }, 'number', cardMessages.numberInvalid],
    [{ number: '4242 abcd 4242 4242' }, 'number', cardMessages.numberInvalid],
    [{ expiry: '13 / 30' }, 'expiry', cardMessages.expiryIncomplete],
    [{ expiry: '' }, 'expiry', cardMessages.expiryIncomplete],
    [{ expiry: '12 / 25' }, 'expiry', cardMessages.expiryYearPast],
    [{ expiry: '10 / 26' }, 'expiry', cardMessages.expiryPast],
    [{ cvc: '1' }, 'cvc', cardMessages.cvcIncomplete],
  ])('checks %o: %s says "%s"', (input, field, message) => {
    const checked = checkCard(
      { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', ...input },
      NOW,
    );
    expect(checked).toMatchObject({ ok: false, field, message });
  });

  it('accepts this month as an expiry', () => {
    expect(card('4242424242424242', '11 / 26').ok).toBe(true);
  });
});
