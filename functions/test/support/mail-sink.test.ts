import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { parseReceivedMail, type S3Sender, sinkMailbox } from './mail-sink';
import { awaitLink } from './mailbox';

// Reading the stage's test mail sink: raw MIME as SES receiving stores it,
// read through a fake S3 client that keeps objects in memory and counts reads.

const site = 'https://d111111abcdef8.cloudfront.net';
const token = 'Zx9_-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

/** A message as SES puts it in the bucket: its receipt headers, then the sender's multipart/alternative mail. */
function receivedMime(to: string, subject: string, link: string, date = 'Mon, 30 Nov 2026 10:00:00 +0000') {
  // Quoted-printable as SES sends it: a soft line break (`=` at the end) inside the long link.
  const softBroken = `Confirm your address:\r\n${link.slice(0, 60)}=\r\n${link.slice(60)}\r\n`;
  return [
    'Return-Path: <0100018c-bounces@amazonses.com>',
    'Received: from a8-1.smtp-out.amazonses.com (a8-1.smtp-out.amazonses.com [54.240.8.1])',
    ' by inbound-smtp.eu-west-1.amazonaws.com with SMTP id abc123',
    ` for ${to}; ${date}`,
    'X-SES-Spam-Verdict: PASS',
    'X-SES-Virus-Verdict: PASS',
    'From: Tunesmith <no-reply@example.org>',
    `To: ${to}`,
    `Subject: ${subject}`,
    'MIME-Version: 1.0',
    `Date: ${date}`,
    'Content-Type: multipart/alternative; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    softBroken,
    '--b1',
    'Content-Type: text/html; charset=UTF-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    `<p><a href=3D"${link.slice(0, 50)}=\r\n${link.slice(50)}">Confirm</a></p>`,
    '--b1--',
    '',
  ].join('\r\n');
}

function fakeBucket(bucket: string, pageSize = 2) {
  const objects = new Map<string, { body: string; at: Date }>();
  const gets: string[] = [];
  const client: S3Sender = {
    send: (async (command: unknown) => {
      if (command instanceof ListObjectsV2Command) {
        expect(command.input.Bucket).toBe(bucket);
        const keys = [...objects.keys()].filter((k) => k.startsWith(command.input.Prefix ?? '')).sort();
        const start = Number(command.input.ContinuationToken ?? 0);
        const page = keys.slice(start, start + pageSize);
        const more = start + pageSize < keys.length;
        return {
          Contents: page.map((Key) => ({ Key, LastModified: objects.get(Key)?.at })),
          IsTruncated: more,
          ...(more ? { NextContinuationToken: String(start + pageSize) } : {}),
        };
      }
      if (command instanceof GetObjectCommand) {
        const key = command.input.Key as string;
        gets.push(key);
        const body = objects.get(key)?.body ?? '';
        return { Body: { transformToByteArray: async () => new TextEncoder().encode(body) } };
      }
      throw new Error('unexpected command');
    }) as S3Sender['send'],
  };
  return { client, objects, gets };
}

describe('parseReceivedMail', () => {
  it('gives the recipients, subject, decoded text and html of a received message', async () => {
    const link = `${site}/verify-email/${token}`;
    const mail = await parseReceivedMail(
      receivedMime('Ada-1@Inbox.Example.org', 'Verify your email', link),
      Date.parse('2026-11-30T10:00:02Z'),
    );

    expect(mail.destination.to).toEqual(['ada-1@inbox.example.org']);
    expect(mail.subject).toBe('Verify your email');
    expect(mail.body.text).toContain(link);
    expect(mail.body.html).toContain(`href="${link}"`);
    expect(mail.at).toBe(Date.parse('2026-11-30T10:00:02Z'));
  });

  it('reads a message without a recipient or text (the SES setup notice) without failing', async () => {
    const mail = await parseReceivedMail('Subject: Amazon SES Setup Notification\r\n\r\nHello\r\n', 5);
    expect(mail).toMatchObject({ destination: { to: [] }, subject: 'Amazon SES Setup Notification' });
  });
});

describe('sinkMailbox', () => {
  it('lists every page under the prefix, oldest first, and fetches each message once', async () => {
    const { client, objects, gets } = fakeBucket('sink-bucket');
    const to = 'reset-1@inbox.example.org';
    objects.set('inbox/b', {
      body: receivedMime(to, 'Second', `${site}/reset-password/second`),
      at: new Date('2026-11-30T10:00:05Z'),
    });
    objects.set('inbox/a', {
      body: receivedMime(to, 'First', `${site}/reset-password/first`),
      at: new Date('2026-11-30T10:00:01Z'),
    });
    objects.set('inbox/c', {
      body: receivedMime('someone@inbox.example.org', 'Other', `${site}/verify-email/other`),
      at: new Date('2026-11-30T10:00:03Z'),
    });
    objects.set('elsewhere/x', { body: 'not mail', at: new Date() });
    const mailbox = sinkMailbox(client, 'sink-bucket', 'inbox/');

    const first = await mailbox.mails();
    expect(first.map((m) => m.subject)).toEqual(['First', 'Other', 'Second']);
    const again = await mailbox.mails();
    expect(again).toHaveLength(3);
    expect(gets.sort()).toEqual(['inbox/a', 'inbox/b', 'inbox/c']);
  });

  it('finds the newest link to an address as the tests do, waiting for mail still on its way', async () => {
    const { client, objects } = fakeBucket('sink-bucket');
    const to = 'verify-7@inbox.example.org';
    const mailbox = sinkMailbox(client, 'sink-bucket', 'inbox/');
    setTimeout(() => {
      objects.set('inbox/late', {
        body: receivedMime(to, 'Verify your email', `${site}/verify-email/${token}`),
        at: new Date(),
      });
    }, 50);

    const found = await awaitLink(() => mailbox.mails(), to, '/verify-email/', {
      timeoutMs: 2_000,
      intervalMs: 10,
    });

    expect(found.token).toBe(token);
    expect(found.link).toBe(`${site}/verify-email/${token}`);
    await expect(
      awaitLink(() => mailbox.mails(), 'nobody@inbox.example.org', '/verify-email/', {
        timeoutMs: 30,
        intervalMs: 10,
      }),
    ).rejects.toThrow(/No mail to nobody@inbox.example.org/);
  });

  it('says what to deploy when the stage has no sink', () => {
    expect(() => sinkMailbox(fakeBucket('x').client, '', 'inbox/')).toThrow(/mailSinkDomain/);
  });
});
