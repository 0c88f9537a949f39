/**
 * A stems zip made in memory (decision 044): the step that makes the stems
 * holds their WAVs already, and a set is at most six files. WAVs are stored
 * as they are (they hardly compress), text is deflated.
 */
import { ZipArchive } from 'archiver';

export async function zipInMemory(entries: Array<{ name: string; bytes: Uint8Array }>): Promise<Uint8Array> {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    zip.on('end', () => resolve());
    zip.on('error', reject);
  });
  for (const entry of entries)
    zip.append(Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength), {
      name: entry.name,
      store: entry.name.endsWith('.wav'),
    });
  await zip.finalize();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}
