/**
 * Content credentials (a signed C2PA manifest) inside the WAV download, made
 * with c2pa-rs's WebAssembly build (`@contentauth/c2pa-wasm`), offline.
 *
 * The manifest says the file was created by a trained model
 * (`c2pa.actions`: `c2pa.created` with IPTC's trainedAlgorithmicMedia and the
 * model as software agent) and carries the provenance record's URL and the
 * license (`org.tunesmith.provenance`). c2pa-rs hashes the whole file but
 * its own `C2PA` chunk, so the marking chunks are covered too: a changed
 * sample, title or comment no longer validates.
 *
 * Two things the WebAssembly build leaves to its host:
 * - Reading the file: the builder takes a browser `Blob` and reads it with
 *   `FileReaderSync`, which Node lacks; a Blob-shaped view of the bytes and a
 *   reader of such views stand in (installed once, only where none exists).
 * - The signature: its JavaScript signer returns the whole COSE_Sign1
 *   (RFC 9052), padded to the size reserved for it; written here (ES256 with
 *   node:crypto, the certificate chain in the protected header's x5chain).
 *
 * The .wasm (9 MB) is imported as bytes (esbuild inlines it into a chunk of
 * its own, loaded only by the step that signs) and read from node_modules
 * outside a bundle, as the Opus encoder's is.
 */

import { createPrivateKey, type KeyObject, sign, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import type { FileMarking } from '../../domain/audio/marking';
import type { ContentCredentials } from '../../workflow/steps';
import { CborMap, CborTag, encodeCbor } from './cbor';
import type { SigningCredentials } from './certificates';

const WASM = '@contentauth/c2pa-wasm/c2pa.wasm';

/** The custom assertion with the provenance record's URL and the license. */
export const PROVENANCE_ASSERTION = 'org.tunesmith.provenance';

type C2paModule = typeof import('@contentauth/c2pa-wasm');

async function wasmBinary(): Promise<Uint8Array> {
  try {
    const bundled = await import('@contentauth/c2pa-wasm/c2pa.wasm', { with: { type: 'bytes' } });
    if (bundled.default instanceof Uint8Array) return bundled.default;
  } catch {
    // Not bundled: Node has no bytes imports; the file is in node_modules.
  }
  return readFile(createRequire(import.meta.url).resolve(WASM));
}

/** A `Blob` as far as c2pa-rs uses one: its size, and slices of it. */
class BytesBlob {
  constructor(readonly bytes: Uint8Array) {}
  get size(): number {
    return this.bytes.length;
  }
  slice(start = 0, end = this.bytes.length): BytesBlob {
    return new BytesBlob(this.bytes.subarray(start, end));
  }
}

/** `FileReaderSync` for {@link BytesBlob}s: what the builder reads its source with. */
class BytesBlobReader {
  readAsArrayBuffer(blob: unknown): ArrayBuffer {
    if (!(blob instanceof BytesBlob)) throw new TypeError('Only in-memory audio is read here');
    const { bytes } = blob;
    // The whole file (what the builder reads) is handed over as it is: a 42 MB WAV is not copied twice.
    if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
      return bytes.buffer as ArrayBuffer;
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
}

let loaded: Promise<C2paModule> | undefined;

/** The WebAssembly module, instantiated once per process. */
export function loadC2pa(): Promise<C2paModule> {
  loaded ??= Promise.all([wasmBinary(), import('@contentauth/c2pa-wasm')])
    .then(([bytes, c2pa]) => {
      const global = globalThis as { FileReaderSync?: unknown };
      global.FileReaderSync ??= BytesBlobReader;
      c2pa.initSync({ module: bytes });
      return c2pa;
    })
    .catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
  return loaded;
}

const COSE_ALG = 1;
const COSE_X5CHAIN = 33;
const COSE_ES256 = -7;
const COSE_SIGN1_TAG = 18;

/** DER of each PEM certificate, signer first. */
const chainOf = (certificatesPem: string[]) =>
  certificatesPem.map((pem) => new Uint8Array(new X509Certificate(pem).raw));

/**
 * A COSE_Sign1 over `payload` (detached), ES256, the chain in the protected
 * header, padded with an unprotected `pad` to exactly `size` bytes.
 */
export function coseSign1(
  payload: Uint8Array,
  key: KeyObject,
  chain: Uint8Array[],
  size: number,
): Uint8Array {
  const protectedHeader = encodeCbor(
    new CborMap([
      [COSE_ALG, COSE_ES256],
      [COSE_X5CHAIN, chain],
    ]),
  );
  const toBeSigned = encodeCbor(['Signature1', protectedHeader, new Uint8Array(0), payload]);
  const signature = new Uint8Array(sign('sha256', toBeSigned, { key, dsaEncoding: 'ieee-p1363' }));
  const build = (padding: number) =>
    encodeCbor(
      new CborTag(COSE_SIGN1_TAG, [
        protectedHeader,
        new CborMap([['pad', new Uint8Array(padding)]]),
        null,
        signature,
      ]),
    );
  let padding = Math.max(0, size - build(0).length);
  let cose = build(padding);
  // The pad's own length field grows by a byte or two past some sizes: take them back.
  while (cose.length > size && padding > 0) {
    padding = Math.max(0, padding - (cose.length - size));
    cose = build(padding);
  }
  if (cose.length > size) throw new Error(`The signature needs ${cose.length} bytes, ${size} are reserved`);
  return cose;
}

/** The manifest definition c2pa-rs builds the claim from. */
export function manifestDefinition(marking: FileMarking): Record<string, unknown> {
  return {
    claim_generator_info: [{ name: marking.siteName }],
    title: `${marking.title}.wav`,
    format: 'audio/wav',
    assertions: [
      {
        label: 'c2pa.actions',
        data: {
          actions: [
            {
              action: 'c2pa.created',
              digitalSourceType: DIGITAL_SOURCE_TYPE,
              softwareAgent: { name: marking.model },
              when: marking.createdAt,
            },
          ],
        },
      },
      {
        label: PROVENANCE_ASSERTION,
        data: {
          provenance: marking.provenanceUrl,
          ...(marking.license ? { license: marking.license.summary, terms: marking.license.termsUrl } : {}),
        },
      },
    ],
  };
}

/** c2pa-rs settings: nothing fetched (no OCSP, no remote manifests), no second validation pass. */
const OFFLINE_SETTINGS = JSON.stringify({
  verify: { verify_after_sign: false, ocsp_fetch: false, remote_manifest_fetch: false },
});

/**
 * Content credentials signed with the credentials `credentials()` gives (read
 * when the first file is signed, then kept).
 */
export function c2paContentCredentials(credentials: () => Promise<SigningCredentials>): ContentCredentials {
  let signer: Promise<{ key: KeyObject; chain: Uint8Array[]; reserve: number }> | undefined;
  const signerOnce = () => {
    signer ??= credentials()
      .then(({ privateKeyPem, certificatesPem }) => {
        const chain = chainOf(certificatesPem);
        // The COSE structure around the chain, the signature and the headers fit in 1 KB.
        const reserve = chain.reduce((n, c) => n + c.length, 0) + 1024;
        return { key: createPrivateKey(privateKeyPem), chain, reserve };
      })
      .catch((error: unknown) => {
        signer = undefined;
        throw error;
      });
    return signer;
  };
  return {
    async sign(wav, marking) {
      const [c2pa, { key, chain, reserve }] = await Promise.all([loadC2pa(), signerOnce()]);
      const builder = c2pa.WasmBuilder.fromJson(
        JSON.stringify(manifestDefinition(marking)),
        OFFLINE_SETTINGS,
      );
      try {
        const signed = await builder.sign(
          {
            alg: 'es256',
            reserveSize: reserve,
            sign: async (claim: Uint8Array) =>
              coseSign1(claim, key, chain, reserve) as Uint8Array<ArrayBuffer>,
          },
          [],
          'audio/wav',
          new BytesBlob(wav) as unknown as Blob,
        );
        return new Uint8Array(signed.buffer, signed.byteOffset, signed.byteLength);
      } finally {
        builder.free();
      }
    },
  };
}
