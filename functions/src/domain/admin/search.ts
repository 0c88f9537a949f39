import type { User } from '../accounts/user';

/** The most a search token keeps; longer names are matched on their start. */
const TOKEN_MAX = 200;

export type SearchField = 'email' | 'first' | 'last' | 'name';
export const searchFields: readonly SearchField[] = ['email', 'first', 'last', 'name'];

/** Lowercased, trimmed, inner whitespace collapsed: how names are compared. */
export function normaliseSearch(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, TOKEN_MAX);
}

/**
 * The words a user is found by, each matched by prefix: the email address,
 * the first name, the last name and the full name ("ada lov" finds Ada Lovelace).
 */
export function userSearchTokens(
  user: Pick<User, 'email' | 'firstName' | 'lastName'>,
): Record<SearchField, string> {
  return {
    email: normaliseSearch(user.email),
    first: normaliseSearch(user.firstName),
    last: normaliseSearch(user.lastName),
    name: normaliseSearch(`${user.firstName} ${user.lastName}`),
  };
}
