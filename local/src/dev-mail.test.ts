import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  extractLinks,
  isDevMailPath,
  renderMailPage,
  type StoredMail,
  toMailViews,
  wantsJson,
} from './dev-mail';

const origin = 'http://127.0.0.1:3000';

const mail = (overrides: Partial<StoredMail> = {}): StoredMail => ({
  messageId: 'm1',
  from: 'Tunesmith <no-reply@tunesmith.local>',
  destination: { to: ['ann@example.com'], cc: [], bcc: [] },
  subject: 'Verify your email for Tunesmith',
  body: {
    text: `Hi Ann,\n\nVerify your email: ${origin}/verify-email/abc_DEF-123\n\nThanks.`,
    html: `<p>Hi Ann</p><a href="${origin}/verify-email/abc_DEF-123" style="x">Verify Email</a>`,
  },
  at: 1_800_000_000,
  ...overrides,
});

describe('extractLinks', () => {
  it('finds the URLs of the text body and the hrefs of the HTML body, each once', () => {
    expect(
      extractLinks(
        `Verify: ${origin}/verify-email/tok1.\nOr (${origin}/help), see https://example.com/a?b=1&c=2`,
        `<a href="${origin}/verify-email/tok1">x</a><a href='${origin}/reset-password/tok2'>y</a>`,
      ),
    ).toEqual([
      `${origin}/verify-email/tok1`,
      `${origin}/help`,
      'https://example.com/a?b=1&c=2',
      `${origin}/reset-password/tok2`,
    ]);
  });

  it('decodes entities in hrefs and keeps only http(s) links', () => {
    expect(
      extractLinks(
        '',
        '<a href="https://example.com/?a=1&amp;b=2">x</a><a href="javascript:alert(1)">y</a><a href="mailto:a@b.c">z</a>',
      ),
    ).toEqual(['https://example.com/?a=1&b=2']);
  });
});

describe('toMailViews', () => {
  it('lists the newest first, breaking ties in `at` by arrival order', () => {
    const views = toMailViews([
      mail({ subject: 'first', at: 100 }),
      mail({ subject: 'second', at: 200 }),
      mail({ subject: 'third', at: 200 }),
    ]);
    expect(views.map((view) => view.subject)).toEqual(['third', 'second', 'first']);
  });

  it('gives recipients, bodies, links and an ISO time', () => {
    const [view] = toMailViews([mail({ destination: { to: ['a@example.com', 'b@example.com'] } })]);
    expect(view).toEqual({
      to: 'a@example.com, b@example.com',
      subject: 'Verify your email for Tunesmith',
      text: expect.stringContaining('Verify your email:'),
      html: expect.stringContaining('<a href='),
      links: [`${origin}/verify-email/abc_DEF-123`],
      at: new Date(1_800_000_000_000).toISOString(),
    });
  });

  it('copes with mails missing parts', () => {
    expect(toMailViews([{}])).toEqual([
      { to: '', subject: '', text: '', html: '', links: [], at: new Date(0).toISOString() },
    ]);
  });
});

describe('renderMailPage', () => {
  it('shows each mail with clickable links to the site', () => {
    const page = renderMailPage(toMailViews([mail()]));
    expect(page).toContain('<h2>Verify your email for Tunesmith</h2>');
    expect(page).toContain('ann@example.com');
    expect(page).toContain(
      `<a href="${origin}/verify-email/abc_DEF-123">${origin}/verify-email/abc_DEF-123</a>`,
    );
    expect(page).toContain('Verify your email: <a href=');
  });

  it('escapes everything that comes from a mail', () => {
    const evil = '<script>alert("x")</script>';
    const page = renderMailPage(
      toMailViews([
        mail({
          subject: evil,
          destination: { to: [`"${evil}" <x@example.com>`] },
          body: {
            text: `${evil} https://example.com/"><script>alert(2)</script>`,
            html: `<a href="https://example.com/?q=&quot;&gt;&lt;img src=x onerror=alert(3)&gt;">x</a>`,
          },
        }),
      ]),
    );
    expect(page).not.toMatch(/<script|<img|onerror="|javascript:/i);
    expect(page).toContain(escapeHtml(evil));
    // The HTML body is never rendered as HTML.
    expect(page).not.toContain('<a href="https://example.com/?q=">');
  });

  it('says so when there is no mail, and names the filter', () => {
    expect(renderMailPage([])).toContain('No mail yet.');
    expect(renderMailPage([], { filter: '<b>@x' })).toContain('Mail to &lt;b&gt;@x');
  });
});

describe('request helpers', () => {
  it('answers JSON only when asked for it before HTML', () => {
    expect(wantsJson('application/json')).toBe(true);
    expect(wantsJson('application/json, text/plain, */*')).toBe(true);
    expect(wantsJson('text/html,application/xhtml+xml,application/json;q=0.9')).toBe(false);
    expect(wantsJson(undefined)).toBe(false);
    expect(wantsJson('*/*')).toBe(false);
  });

  it('matches the mailbox path only', () => {
    expect(isDevMailPath('/_dev/mail')).toBe(true);
    expect(isDevMailPath('/_dev/mail?to=a@b.c')).toBe(true);
    expect(isDevMailPath('/_dev/mail/')).toBe(true);
    expect(isDevMailPath('/api/_dev/mail')).toBe(false);
    expect(isDevMailPath('/_dev/mailbox')).toBe(false);
  });
});
