import { describe, expect, it } from 'vitest';
import { uploadKeyFromUrl } from './upload-store';

const bucket = 'tunesmith-uploads';
const key = 'uploads/u1/0b6f3c1e-6f1a-4e39-9d1f-1c2b3a4d5e6f.wav';
const query = '?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc';

describe('uploadKeyFromUrl', () => {
  it('reads path-style links (s3rver locally, path-style endpoints)', () => {
    expect(uploadKeyFromUrl(`http://127.0.0.1:4569/${bucket}/${key}${query}`, bucket)).toBe(key);
    expect(uploadKeyFromUrl(`https://s3.eu-west-1.amazonaws.com/${bucket}/${key}`, bucket)).toBe(key);
  });

  it('reads virtual-hosted links as S3 presigns them on AWS, with or without the query', () => {
    expect(uploadKeyFromUrl(`https://${bucket}.s3.eu-west-1.amazonaws.com/${key}${query}`, bucket)).toBe(key);
    expect(uploadKeyFromUrl(`https://${bucket}.s3.amazonaws.com/${key}`, bucket)).toBe(key);
  });

  it('decodes percent-encoded path segments', () => {
    expect(uploadKeyFromUrl(`http://127.0.0.1:4569/${bucket}/uploads/u1/a%2Db.wav`, bucket)).toBe(
      'uploads/u1/a-b.wav',
    );
  });

  it('refuses other buckets, bare bucket addresses and what is not a link', () => {
    expect(uploadKeyFromUrl(`http://127.0.0.1:4569/tunesmith-tracks/${key}`, bucket)).toBeUndefined();
    expect(uploadKeyFromUrl(`https://other.s3.eu-west-1.amazonaws.com/${key}`, bucket)).toBeUndefined();
    // A host that merely starts with the bucket's name is not its virtual host.
    expect(uploadKeyFromUrl(`https://${bucket}.example.com/${key}`, bucket)).toBeUndefined();
    expect(uploadKeyFromUrl(`http://127.0.0.1:4569/${bucket}/`, bucket)).toBeUndefined();
    expect(uploadKeyFromUrl(`/objects/${key}`, bucket)).toBeUndefined();
    expect(uploadKeyFromUrl(`file:///${bucket}/${key}`, bucket)).toBeUndefined();
    expect(uploadKeyFromUrl(`http://127.0.0.1/${bucket}/%E0%A4%A`, bucket)).toBeUndefined();
  });
});
