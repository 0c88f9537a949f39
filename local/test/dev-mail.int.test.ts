import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { describe, expect, inject, it } from 'vitest';

// The local mailbox at /_dev/mail, served by the local cloud beside the API:
// what the SES emulator received, newest first, as JSON or as a page.

const apiUrl = inject('apiUrl');
const env = inject('cloudEnv');

interface MailJson {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  at: string;
}

async function send(to: string, subject: string, link: string): Promise<void> {
  const ses = new SESv2Client({
    region: env.AWS_REGION,
    endpoint: env.SES_ENDPOINT,
    credentials: {
      accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
    },
  });
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: env.MAIL_FROM,
      Destination: { ToAddresses: [to] },
      Content: {
        Simple: {
          Subject: { Data: subject },
          Body: {
            Text: { Data: `Open this: ${link}\n` },
            Html: { Data: `<p><a href="${link}">Open</a></p>` },
          },
        },
      },
    }),
  );
  ses.destroy();
}

describe.skipIf(!inject('isLocal'))('/_dev/mail', () => {
  it('answers JSON with the received mails, newest first, with their links', async () => {
    const to = `mailbox-${Date.now()}@example.com`;
    const origin = env.PUBLIC_ORIGIN as string;
    await send(to, 'Older <mail>', `${origin}/verify-email/token-one`);
    await send(to, 'Newer mail', `${origin}/reset-password/token-two`);

    const response = await fetch(`${apiUrl}/_dev/mail`, { headers: { accept: 'application/json' } });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { emails } = (await response.json()) as { emails: MailJson[] };
    const mine = emails.filter((mail) => mail.to === to);
    expect(mine.map((mail) => mail.subject)).toEqual(['Newer mail', 'Older <mail>']);
    expect(mine[0]).toEqual({
      to,
      subject: 'Newer mail',
      text: `Open this: ${origin}/reset-password/token-two\n`,
      html: `<p><a href="${origin}/reset-password/token-two">Open</a></p>`,
      links: [`${origin}/reset-password/token-two`],
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Newest first over the whole mailbox, too.
    const times = emails.map((mail) => Date.parse(mail.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('serves an escaped HTML page with clickable links by default, and ?to= narrows it', async () => {
    const to = `page-${Date.now()}@example.com`;
    const link = `${env.PUBLIC_ORIGIN}/verify-email/page-token`;
    await send(to, '<script>alert(1)</script>', link);

    const response = await fetch(`${apiUrl}/_dev/mail?to=${encodeURIComponent(to)}`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain(`<a href="${link}">${link}</a>`);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('mailbox-');
  });

  it('is not part of the API', async () => {
    const response = await fetch(`${apiUrl}/api/_dev/mail`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(404);
  });
});
