import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInPath } from './return-path';

const origin = 'https://tunesmith.example';

describe('safeReturnPath', () => {
  it.each([
    ['/pricing?subscribe=basic&cycle=monthly', '/pricing?subscribe=basic&cycle=monthly'],
    ['/profile', '/profile'],
    ['/', '/'],
    ['/track/abc#player', '/track/abc#player'],
    // Dot segments resolve on this site.
    ['/a/../profile', '/profile'],
  ])('accepts the path %s on this site', (value, expected) => {
    expect(safeReturnPath(value, origin)).toBe(expected);
  });

  it.each([
    ['another host, protocol-relative', '//evil.example'],
    ['another host, protocol-relative with a path', '//evil.example/pricing'],
    ['an absolute address', 'https://evil.example'],
    ['an absolute address on this site', `${origin}/profile`],
    ['a backslash after the slash', '/\\evil.example'],
    ['a backslash later on', '/pricing\\..\\\\evil.example'],
    ['a script', 'javascript:alert(1)'],
    ['a tab that browsers drop', '/\t/evil.example'],
    ['a newline that browsers drop', '/\n/evil.example'],
    ['a relative path', 'pricing'],
    ['an empty value', ''],
    ['a very long value', `/${'a'.repeat(3000)}`],
  ])('refuses %s', (_case, value) => {
    expect(safeReturnPath(value, origin)).toBeNull();
  });

  it('refuses what is not text', () => {
    expect(safeReturnPath(undefined, origin)).toBeNull();
    expect(safeReturnPath(null, origin)).toBeNull();
    expect(safeReturnPath(['/profile'], origin)).toBeNull();
  });

  it("checks against the page's own origin by default", () => {
    expect(safeReturnPath('/profile')).toBe('/profile');
    expect(safeReturnPath('//evil.example')).toBeNull();
  });
});

describe('signInPath', () => {
  it('carries a path on this site, encoded', () => {
    expect(signInPath('/pricing?subscribe=basic&cycle=monthly')).toBe(
      '/auth?next=%2Fpricing%3Fsubscribe%3Dbasic%26cycle%3Dmonthly',
    );
  });

  it('leaves out anything else', () => {
    expect(signInPath('https://evil.example')).toBe('/auth');
    expect(signInPath(null)).toBe('/auth');
  });
});
