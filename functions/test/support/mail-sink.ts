/**
 * The stage's test mail sink (infra/lib/mail-sink.ts): SES receives mail for
 * the test domain and puts each message, raw MIME, into the sink bucket under
 * its prefix. This reads them back as the local SES store's mails, so the
 * tests look for links the same way against either.
 */
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { type AddressObject, simpleParser } from 'mailparser';
import type { StoredMail } from './mailbox';

/** What the reader needs of an S3 client (a fake in unit tests). */
export type S3Sender = Pick<S3Client, 'send'>;

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((group) =>
    group.value.flatMap((entry) => [
      ...(entry.address ? [entry.address.toLowerCase()] : []),
      ...(entry.group ?? []).flatMap((member) => (member.address ? [member.address.toLowerCase()] : [])),
    ]),
  );

/** One received message as a stored mail; `receivedAt` (ms) orders messages whose Date is the same second. */
export async function parseReceivedMail(raw: Uint8Array | string, receivedAt: number): Promise<StoredMail> {
  const parsed = await simpleParser(Buffer.from(raw));
  return {
    destination: { to: addresses(parsed.to) },
    subject: parsed.subject ?? '',
    body: {
      ...(parsed.text !== undefined ? { text: parsed.text } : {}),
      ...(parsed.html ? { html: parsed.html } : {}),
    },
    at: Math.max(parsed.date?.getTime() ?? 0, receivedAt),
  };
}

/**
 * The sink's mail, oldest first. Messages never change once received, so
 * each is fetched and parsed once per reader; a poll lists the prefix and
 * reads only what is new.
 */
export function sinkMailbox(client: S3Sender, bucket: string, prefix: string) {
  if (!bucket)
    throw new Error('No mail sink bucket (MAIL_SINK_BUCKET): deploy the stage with -c mailSinkDomain');
  const read = new Map<string, StoredMail>();
  return {
    async mails(): Promise<StoredMail[]> {
      const listed: { key: string; at: number }[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key) listed.push({ key: object.Key, at: object.LastModified?.getTime() ?? 0 });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);

      const fresh = listed.filter((object) => !read.has(object.key));
      for (let i = 0; i < fresh.length; i += 8) {
        await Promise.all(
          fresh.slice(i, i + 8).map(async ({ key, at }) => {
            const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
            const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
            read.set(key, await parseReceivedMail(bytes, at));
          }),
        );
      }
      return listed.map(({ key }) => read.get(key) as StoredMail).sort((a, b) => a.at - b.at);
    },
  };
}
