import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * `/_dev/mail`: the local mailbox. Served by the local cloud only (never under
 * `/api`, never by a product Lambda): it reads what the handlers sent through
 * aws-ses-v2-local (`GET <SES_ENDPOINT>/store`) and lists it newest first, as
 * an HTML page with clickable links, or as JSON for `Accept: application/json`.
 */

export const DEV_MAIL_PATH = '/_dev/mail';

/** One mail as aws-ses-v2-local stores it (the fields we read). */
export interface StoredMail {
  messageId?: string;
  from?: string;
  destination?: { to?: string[]; cc?: string[]; bcc?: string[] };
  subject?: string;
  body?: { text?: string; html?: string };
  /** Epoch seconds. */
  at?: number;
}

/** One mail as the mailbox shows it. */
export interface MailView {
  /** Recipients, comma-separated. */
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the mail, text body first, without duplicates. */
  links: string[];
  /** When the emulator received it, ISO 8601. */
  at: string;
}

const HTML_ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
  '&#x2F;': '/',
  '&#47;': '/',
};

const decodeEntities = (value: string): string =>
  value.replace(/&(?:amp|lt|gt|quot|#39|#x27|#x2F|#47);/gi, (entity) => HTML_ENTITIES[entity] ?? entity);

/** Text for an HTML element or attribute: `&`, `<`, `>`, `"` and `'` escaped. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A URL with a trailing sentence punctuation or closing bracket removed (`see https://x/y.` -> `https://x/y`). */
const trimUrl = (url: string): string => url.replace(/[.,;:!?)\]}>'"]+$/, '');

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** The http(s) links of a mail: URLs in the text body, then `href`s of the HTML body; each once. */
export function extractLinks(text: string, html: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+/g)) found.push(trimUrl(match[0]));
  for (const match of html.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    found.push(decodeEntities((match[1] ?? match[2] ?? match[3] ?? '').trim()));
  }
  return [...new Set(found.filter(isHttpUrl))];
}

/** The mailbox's view of the store: newest first. */
export function toMailViews(emails: readonly StoredMail[]): MailView[] {
  // The store appends as mails arrive; `at` has one-second resolution, so arrival order breaks ties.
  return emails
    .map((mail, index) => ({ mail, index }))
    .sort((a, b) => (b.mail.at ?? 0) - (a.mail.at ?? 0) || b.index - a.index)
    .map(({ mail }) => {
      const text = mail.body?.text ?? '';
      const html = mail.body?.html ?? '';
      return {
        to: (mail.destination?.to ?? []).join(', '),
        subject: mail.subject ?? '',
        text,
        html,
        links: extractLinks(text, html),
        at: new Date((mail.at ?? 0) * 1000).toISOString(),
      };
    });
}

/** The text body with its http(s) URLs as links; everything escaped. */
function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    const url = trimUrl(match[0]);
    const start = match.index ?? 0;
    out += escapeHtml(text.slice(last, start));
    out += isHttpUrl(url) ? `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>` : escapeHtml(url);
    last = start + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

/** The mailbox page. Every value from a mail is escaped; only http(s) links become anchors. */
export function renderMailPage(mails: readonly MailView[], options: { filter?: string } = {}): string {
  const items = mails
    .map(
      (mail) => `<article class="mail">
  <header>
    <h2>${escapeHtml(mail.subject || '(no subject)')}</h2>
    <p class="meta">To <strong>${escapeHtml(mail.to)}</strong> · <time datetime="${escapeHtml(mail.at)}">${escapeHtml(mail.at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</time></p>
  </header>
  ${
    mail.links.length
      ? `<ul class="links">${mail.links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join('')}</ul>`
      : ''
  }
  <pre>${linkify(mail.text)}</pre>
</article>`,
    )
    .join('\n');
  const heading = options.filter ? `Mail to ${escapeHtml(options.filter)}` : 'Local mailbox';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${heading} · Tunesmith (local)</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 860px; padding: 24px; color: #1f2328; }
  h1 { font-size: 22px; margin: 0 0 4px; }
  .note { color: #59636e; margin: 0 0 24px; }
  .mail { border: 1px solid #d1d9e0; border-radius: 8px; padding: 16px; margin: 0 0 16px; }
  .mail h2 { font-size: 17px; margin: 0; }
  .meta { color: #59636e; margin: 4px 0 8px; }
  .links { margin: 8px 0; padding-left: 20px; }
  pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: 12px; border-radius: 6px; margin: 8px 0 0; }
  a { color: #0969da; }
</style>
</head>
<body>
<h1>${heading}</h1>
<p class="note">Mail sent by the local cloud through the SES emulator, newest first. It lives in memory until the cloud stops. Reload to see new mail.</p>
${items || '<p>No mail yet.</p>'}
</body>
</html>
`;
}

/** Whether the client asked for JSON rather than the page. */
export function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]?.trim().toLowerCase());
  const json = types.indexOf('application/json');
  const html = types.indexOf('text/html');
  return json >= 0 && (html < 0 || json < html);
}

/** Whether a request is for the mailbox (`/_dev/mail`, with or without a query). */
export function isDevMailPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path === DEV_MAIL_PATH || path === `${DEV_MAIL_PATH}/`;
}

/** Serves `/_dev/mail` from the SES emulator's store. `?to=` keeps the mail to that address. */
export function createDevMailHandler(sesEndpoint: string) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, {
        ...headers,
        allow: 'GET, HEAD',
        'content-type': 'application/json; charset=utf-8',
      });
      res.end(JSON.stringify({ message: 'Method Not Allowed' }));
      return;
    }
    const json = wantsJson(req.headers.accept);
    const response = await fetch(`${sesEndpoint}/store`);
    if (!response.ok) {
      const message = `The SES emulator answered ${response.status}`;
      res.writeHead(502, {
        ...headers,
        'content-type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
      });
      res.end(json ? JSON.stringify({ message }) : message);
      return;
    }
    const store = (await response.json()) as { emails?: StoredMail[] };
    const filter = new URL(req.url ?? '/', 'http://local').searchParams.get('to')?.trim().toLowerCase() || '';
    const emails = toMailViews(store.emails ?? []).filter(
      (mail) => !filter || mail.to.toLowerCase().includes(filter),
    );
    const body = json ? JSON.stringify({ emails }) : renderMailPage(emails, filter ? { filter } : {});
    res.writeHead(200, {
      ...headers,
      vary: 'Accept',
      'content-type': json ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
      ...(json
        ? {}
        : {
            'content-security-policy':
              "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
          }),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
