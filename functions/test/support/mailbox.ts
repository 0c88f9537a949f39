/**
 * The local SES store (aws-ses-v2-local's `/store`), read without the test
 * runner so `npm run bench` signs its users up with the same lookup.
 */

/** A mail as the local SES store keeps it. */
export interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

export type MailedPath = '/verify-email/' | '/reset-password/';

/** Every mail the store at `sesEndpoint` holds, oldest first. */
export async function storedMails(sesEndpoint: string): Promise<StoredMail[]> {
  return ((await (await fetch(`${sesEndpoint}/store`)).json()) as { emails: StoredMail[] }).emails;
}

/**
 * The newest mail to `to` whose text contains `path`, and the token in its
 * link; the mail is sent after the call that causes it answers, so this waits
 * a little for it.
 */
export async function mailedLink(
  sesEndpoint: string,
  to: string,
  path: MailedPath,
): Promise<{ token: string; link: string; mail: StoredMail }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const mail = (await storedMails(sesEndpoint))
      .reverse()
      .find((m) => m.destination.to.some((t) => t.includes(to)) && (m.body.text ?? '').includes(path));
    const link = mail?.body.text?.match(new RegExp(`https?://\\S+${path}[A-Za-z0-9_-]+`))?.[0];
    if (mail && link) return { token: link.slice(link.lastIndexOf('/') + 1), link, mail };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail to ${to} with ${path}`);
}
