/**
 * Reading the mail the API sent: the local SES store (aws-ses-v2-local's
 * `/store`), read without the test runner so `npm run bench` signs its users
 * up with the same lookup, and the search for a mailed link that the stage's
 * mail sink (`mail-sink.ts`) shares.
 */

/** A mail as the local SES store keeps it (and as the mail sink's reader gives it). */
export interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

export type MailedPath = '/verify-email/' | '/reset-password/';

export interface MailedLink {
  token: string;
  link: string;
  mail: StoredMail;
}

/** Every mail the store at `sesEndpoint` holds, oldest first. */
export async function storedMails(sesEndpoint: string): Promise<StoredMail[]> {
  return ((await (await fetch(`${sesEndpoint}/store`)).json()) as { emails: StoredMail[] }).emails;
}

/** The newest of `mails` (oldest first) to `to` whose text holds a link to `path`, with the link's token. */
export function linkIn(mails: readonly StoredMail[], to: string, path: MailedPath): MailedLink | undefined {
  const address = to.toLowerCase();
  for (const mail of [...mails].reverse()) {
    const addressed = mail.destination.to.some((t) => t.toLowerCase().includes(address));
    if (!addressed || !(mail.body.text ?? '').includes(path)) continue;
    const link = mail.body.text?.match(new RegExp(`https?://\\S+${path}[A-Za-z0-9_-]+`))?.[0];
    if (link) return { token: link.slice(link.lastIndexOf('/') + 1), link, mail };
  }
  return undefined;
}

/**
 * Waits for a mail to `to` with a link to `path`: mail is sent after the
 * call that causes it answers (and through SES receiving on a stage, seconds
 * later), so `load` is asked again every `intervalMs` until `timeoutMs`.
 */
export async function awaitLink(
  load: () => Promise<StoredMail[]>,
  to: string,
  path: MailedPath,
  { timeoutMs = 2_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<MailedLink> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = linkIn(await load(), to, path);
    if (found) return found;
    if (Date.now() >= until) throw new Error(`No mail to ${to} with ${path} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The newest mail to `to` in the local SES store whose text contains `path`, and the token in its link. */
export function mailedLink(sesEndpoint: string, to: string, path: MailedPath): Promise<MailedLink> {
  return awaitLink(() => storedMails(sesEndpoint), to, path);
}
