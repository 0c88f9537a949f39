import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { parseBuffer } from 'music-metadata';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundleLambda } from '../../../../infra/lib/lambda-bundle';
import { type FileMarking, markWav } from '../../domain/audio/marking';
import { tone, wavFile } from '../../domain/audio/testing';
import { parseWav } from '../../domain/audio/wav';
import { makeSigningCredentials, parseSigningCredentials, type SigningCredentials } from './certificates';
import { c2paContentCredentials, coseSign1, loadC2pa, PROVENANCE_ASSERTION } from './content-credentials';
import { credentialsMadeOnFirstUse, memoryCredentialStore } from './credential-store';

// Content credentials are read back with c2pa-rs's own reader and validator
// (the same library signs them: validation is what proves the signature,
// the hashes and the certificate profile), trusting the site's root as a
// user anchor.

const marking: FileMarking = {
  title: 'Small Hours',
  siteName: 'Tunesmith',
  model: 'ACE-Step',
  provenanceUrl: 'https://tunesmith.example/api/track/t-1/provenance',
  createdAt: '2026-08-03T10:20:30.000Z',
  license: {
    summary: 'Personal, non-commercial use only.',
    termsUrl: 'https://tunesmith.example/terms#license',
  },
};

const credentials = makeSigningCredentials('Tunesmith');
const root = credentials.certificatesPem[1] as string;

const markedWav = () =>
  markWav(wavFile([tone(440, 1, 44100, 0.4), tone(660, 1, 44100, 0.3)], { sampleRate: 44100 }), marking);

interface Report {
  validation_state: string;
  active_manifest: string;
  manifests: Record<string, { assertions: { label: string; data: Record<string, unknown> }[] }>;
  validation_results?: { activeManifest?: { failure?: { code: string }[] } };
}

async function validate(wav: Uint8Array, anchors: string | null = root): Promise<Report> {
  const c2pa = await loadC2pa();
  const context = anchors ? JSON.stringify({ trust: { user_anchors: anchors } }) : null;
  const reader = await c2pa.WasmReader.fromBytes('audio/wav', wav, context);
  try {
    return JSON.parse(reader.json()) as Report;
  } finally {
    reader.free();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the signing credentials', () => {
  it('are a P-256 signer certificate issued by a root of the site, with the profile C2PA asks of a signer', () => {
    const [signerPem, rootPem] = credentials.certificatesPem as [string, string];
    const signer = new X509Certificate(signerPem);
    const issuer = new X509Certificate(rootPem);
    expect(signer.checkIssued(issuer)).toBe(true);
    expect(signer.verify(issuer.publicKey)).toBe(true);
    expect(issuer.verify(issuer.publicKey)).toBe(true);
    expect(signer.ca).toBe(false);
    expect(issuer.ca).toBe(true);
    expect(signer.keyUsage).toEqual(['1.3.6.1.5.5.7.3.4']);
    expect(signer.subject).toContain('CN=Tunesmith Content Credentials');
    expect(signer.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(signer.checkPrivateKey(createKey(credentials))).toBe(true);
    expect(new Date(signer.validTo).getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 24 * 3600 * 1000);
  });

  it('are read back from their stored JSON, and anything else is no credentials', () => {
    expect(parseSigningCredentials(JSON.stringify(credentials))).toEqual(credentials);
    expect(parseSigningCredentials('xK3!random placeholder')).toBeUndefined();
    expect(parseSigningCredentials(undefined)).toBeUndefined();
    expect(
      parseSigningCredentials(JSON.stringify({ ...credentials, privateKeyPem: 'nope' })),
    ).toBeUndefined();
  });

  it('are made on first use, stored, and the same ever after', async () => {
    const store = memoryCredentialStore();
    await store.write('a placeholder the stack wrote');
    const source = credentialsMadeOnFirstUse(store, async () => 'Music Corner');
    const first = await source();
    expect(new X509Certificate(first.certificatesPem[0] as string).subject).toContain('O=Music Corner');
    expect(parseSigningCredentials(await store.read())).toEqual(first);
    expect(await source()).toEqual(first);
  });
});

const createKey = (c: SigningCredentials) => createPrivateKey(c.privateKeyPem);

describe('content credentials in the WAV', () => {
  it('sign the marked WAV offline, and validate as trusted against the site root', {
    timeout: 60_000,
  }, async () => {
    const wav = markedWav();
    const sign = c2paContentCredentials(async () => credentials);
    await loadC2pa();
    const fetchSpy = vi.fn(() => {
      throw new Error('no network here');
    });
    vi.stubGlobal('fetch', fetchSpy);

    const signed = await sign.sign(wav, marking);

    expect(fetchSpy).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
    const report = await validate(signed);
    expect(report.validation_state).toBe('Trusted');
    const manifest = report.manifests[report.active_manifest];
    const actions = manifest?.assertions.find((a) => a.label.startsWith('c2pa.actions'));
    expect(actions?.data.actions).toEqual([
      expect.objectContaining({
        action: 'c2pa.created',
        digitalSourceType: DIGITAL_SOURCE_TYPE,
        softwareAgent: { name: 'ACE-Step' },
      }),
    ]);
    expect(manifest?.assertions.find((a) => a.label === PROVENANCE_ASSERTION)?.data).toEqual({
      provenance: marking.provenanceUrl,
      license: 'Personal, non-commercial use only.',
      terms: 'https://tunesmith.example/terms#license',
    });

    // The marking and the samples are still there, as before.
    const { common } = await parseBuffer(signed, { mimeType: 'audio/wav' });
    expect(common.title).toBe('Small Hours');
    expect(parseWav(signed).frames).toBe(44100);
    expect(Buffer.from(signed.subarray(12, 12 + 8 + 16 + 8 + 8))).toEqual(Buffer.from(wav.subarray(12, 52)));
  });

  it('no longer validate once a sample or the marking changes', { timeout: 60_000 }, async () => {
    const signed = await c2paContentCredentials(async () => credentials).sign(markedWav(), marking);
    expect((await validate(signed)).validation_state).toBe('Trusted');

    const sample = signed.slice();
    sample[44 + 1000] = (sample[44 + 1000] as number) ^ 0xff;
    const failures = (r: Report) => r.validation_results?.activeManifest?.failure?.map((f) => f.code) ?? [];
    expect((await validate(sample)).validation_state).toBe('Invalid');
    expect(failures(await validate(sample))).toContain('assertion.dataHash.mismatch');

    const retitled = signed.slice();
    const at = Buffer.from(retitled).indexOf('Small Hours');
    retitled.set(new TextEncoder().encode('Small Houses'.slice(0, 11)), at);
    expect((await validate(retitled)).validation_state).toBe('Invalid');
  });

  it('are signed, not vouched for: without the site root as an anchor they are valid, not trusted', {
    timeout: 60_000,
  }, async () => {
    const signed = await c2paContentCredentials(async () => credentials).sign(markedWav(), marking);
    const report = await validate(signed, null);
    expect(report.validation_state).toBe('Valid');
  });

  it('fill exactly the space reserved for the signature', () => {
    const key = createKey(credentials);
    const chain = credentials.certificatesPem.map((pem) => new Uint8Array(new X509Certificate(pem).raw));
    for (const size of [1500, 2000, 4096, 65_600])
      expect(coseSign1(new Uint8Array(300), key, chain, size).length).toBe(size);
    expect(() => coseSign1(new Uint8Array(300), key, chain, 200)).toThrow(/reserved/);
  });

  it('work bundled as the stack bundles a Lambda (no node_modules beside it)', {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tunesmith-c2pa-bundle-'));
    try {
      const entry = join(dir, 'entry.ts');
      const module = (name: string) => JSON.stringify(fileURLToPath(new URL(name, import.meta.url)));
      writeFileSync(
        entry,
        `import { c2paContentCredentials } from ${module('./content-credentials.ts')};
         import { readFileSync, writeFileSync } from 'node:fs';
         const [input, output, credentials, marking] = process.argv.slice(2);
         const signer = c2paContentCredentials(async () => JSON.parse(readFileSync(credentials, 'utf8')));
         writeFileSync(output, await signer.sign(readFileSync(input), JSON.parse(readFileSync(marking, 'utf8'))));`,
      );
      const { metafile } = bundleLambda(entry, join(dir, 'out'));
      // The 9 MB binary sits in a chunk of its own, loaded only when a file is signed.
      const entryFile = Object.keys(metafile.outputs).find((path) => path.endsWith('/index.mjs')) as string;
      expect(metafile.outputs[entryFile]?.bytes).toBeLessThan(1_000_000);
      writeFileSync(join(dir, 'in.wav'), markedWav());
      writeFileSync(join(dir, 'credentials.json'), JSON.stringify(credentials));
      writeFileSync(join(dir, 'marking.json'), JSON.stringify(marking));
      execFileSync(
        process.execPath,
        [
          join(dir, 'out', 'index.mjs'),
          ...['in.wav', 'out.wav', 'credentials.json', 'marking.json'].map((f) => join(dir, f)),
        ],
        { cwd: dir },
      );
      expect((await validate(new Uint8Array(readFileSync(join(dir, 'out.wav'))))).validation_state).toBe(
        'Trusted',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
