import type { S3 } from '../s3/client';

// Only the deploy's rewrite lists documents (the jobs function alone may list the site bucket's areas).

/** The names of the `.html` documents in one area of the bucket (`share/playlist/`, say), without the area or `.html`. */
export async function documentsIn(s3: S3, bucket: string, area: string): Promise<string[]> {
  const { sdk, client } = await s3();
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new sdk.ListObjectsV2Command({
        Bucket: bucket,
        Prefix: area,
        ...(token ? { ContinuationToken: token } : {}),
      }),
    );
    for (const { Key } of page.Contents ?? []) {
      if (Key?.endsWith('.html')) names.push(Key.slice(area.length, -'.html'.length));
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return names;
}
