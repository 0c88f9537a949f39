import { describe, expect, it } from 'vitest';
import { normaliseSearch, userSearchTokens } from './search';

describe('user search words', () => {
  it('finds a user by email, first, last and full name, lowercased with spaces collapsed', () => {
    expect(
      userSearchTokens({ email: 'Ada@Example.com', firstName: ' Ada ', lastName: 'King  Lovelace' }),
    ).toEqual({
      email: 'ada@example.com',
      first: 'ada',
      last: 'king lovelace',
      name: 'ada king lovelace',
    });
    expect(normaliseSearch('  ADA   king ')).toBe('ada king');
    expect(normaliseSearch('x'.repeat(500))).toHaveLength(200);
  });
});
