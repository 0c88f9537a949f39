import { describe, expect, it } from 'vitest';
import { hasSignedInHintCookie, prerenderedDocument, sharesTrackDocument } from './pages';

describe('prerendered pages', () => {
  it('answers a visitor with the page document of each prerendered path', () => {
    expect(prerenderedDocument('/', undefined)).toBe('/pages/home.html');
    expect(prerenderedDocument('/pricing', 'theme=dark')).toBe('/pages/pricing.html');
    expect(prerenderedDocument('/auth', '')).toBe('/pages/auth.html');
  });

  it('answers other paths with nothing of its own', () => {
    for (const path of ['/library', '/pricing/', '/auth/x', '/track/abc', '/home', '/pages/home.html'])
      expect(prerenderedDocument(path, undefined)).toBeUndefined();
  });

  it('sends the shell to a browser that carries the signed-in hint, in either form', () => {
    expect(prerenderedDocument('/', 'a=1; ts_signed_in=1')).toBeUndefined();
    expect(prerenderedDocument('/pricing', '__Host-ts_signed_in=1; b=2')).toBeUndefined();
  });

  it('reads cookie names exactly', () => {
    expect(hasSignedInHintCookie('xts_signed_in=1; ts_signed_inx=1; other=ts_signed_in')).toBe(false);
    expect(hasSignedInHintCookie(' ts_signed_in=')).toBe(true);
  });

  it("gives a track's share document to visitors and link previews only, never to a signed-in browser", () => {
    expect(sharesTrackDocument(undefined)).toBe(true);
    expect(sharesTrackDocument('theme=dark')).toBe(true);
    expect(sharesTrackDocument('a=1; ts_signed_in=1')).toBe(false);
    expect(sharesTrackDocument('__Host-ts_signed_in=1')).toBe(false);
  });
});
