import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { XMLParser } from 'fast-xml-parser';
import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { type FileMarking, markingComment, markWav, opusComments } from './marking';
import { encodeOggOpus, type OpusEncoderFactory } from './ogg-opus';
import { AudioFormatError } from './pcm';
import { tone, wavFile } from './testing';
import { parseWav } from './wav';

// The marking is read back with music-metadata (a reader that did not write
// it: LIST/INFO and the ID3 tag) and, for the XMP packet it does not read, with
// this file's own RIFF walk and fast-xml-parser.

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

/** Top-level chunks by a walk of the test's own: id and the chunk's bytes (header and body). */
function chunksOf(wav: Uint8Array): { id: string; bytes: Uint8Array; body: Uint8Array }[] {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const out: { id: string; bytes: Uint8Array; body: Uint8Array }[] = [];
  expect(Buffer.from(wav.subarray(0, 4)).toString('latin1')).toBe('RIFF');
  expect(view.getUint32(4, true)).toBe(wav.length - 8);
  for (let at = 12; at + 8 <= wav.length; ) {
    const id = Buffer.from(wav.subarray(at, at + 4)).toString('latin1');
    const size = view.getUint32(at + 4, true);
    out.push({ id, bytes: wav.subarray(at, at + 8 + size), body: wav.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size % 2);
  }
  return out;
}

/** A chunk the embedded provider writes after the samples (render parameters), odd-sized on purpose. */
function withRenderChunk(wav: Uint8Array): Uint8Array {
  const body = new TextEncoder().encode('{"bpm":96,"key":"D minor","bars":[0,2.5]}');
  expect(body.length % 2).toBe(1);
  const out = new Uint8Array(wav.length + 8 + body.length + 1);
  out.set(wav, 0);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('tsrp'), wav.length);
  view.setUint32(wav.length + 4, body.length, true);
  out.set(body, wav.length + 8);
  view.setUint32(4, out.length - 8, true);
  return out;
}

const master = () =>
  withRenderChunk(wavFile([tone(440, 0.5, 44100, 0.4), tone(660, 0.5, 44100, 0.3)], { sampleRate: 44100 }));

const xmp = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: false });

describe('markWav', () => {
  it('carries title, site, the AI comment and the date in LIST/INFO, as music-metadata reads them', async () => {
    const marked = markWav(master(), marking);

    const { common, native } = await parseBuffer(marked, { mimeType: 'audio/wav' });
    expect(common.title).toBe('Small Hours');
    expect(common.artist).toBe('Tunesmith');
    expect(common.encodedby).toBe('Tunesmith');
    expect(common.date).toBe('2026-08-03');
    expect(common.comment?.map((c) => c.text)).toEqual([
      'Made with AI (ACE-Step) on Tunesmith. Provenance: https://tunesmith.example/api/track/t-1/provenance License: Personal, non-commercial use only.',
    ]);
    expect(native.exif?.map((t) => t.id).sort()).toEqual(['IART', 'ICMT', 'ICRD', 'INAM', 'ISFT']);
  });

  it('carries an XMP packet (_PMX) with the IPTC digital source type and the provenance URL', () => {
    const marked = markWav(master(), marking);
    const packets = chunksOf(marked).filter((c) => c.id === '_PMX');
    expect(packets).toHaveLength(1);
    const text = new TextDecoder().decode(packets[0]?.body);
    expect(text.startsWith('<?xpacket begin="\uFEFF"')).toBe(true);

    const doc = xmp.parse(text);
    const meta = doc['x:xmpmeta'];
    expect(meta['@xmlns:x']).toBe('adobe:ns:meta/');
    const description = meta['rdf:RDF']['rdf:Description'];
    expect(description['@xmlns:Iptc4xmpExt']).toBe('http://iptc.org/std/Iptc4xmpExt/2008-02-29/');
    expect(description['@Iptc4xmpExt:DigitalSourceType']).toBe(DIGITAL_SOURCE_TYPE);
    expect(description['@Iptc4xmpExt:DigitalSourceType']).toBe(
      'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
    );
    expect(description['@Iptc4xmpExt:AISystemUsed']).toBe('ACE-Step');
    expect(description['@xmlns:dc']).toBe('http://purl.org/dc/elements/1.1/');
    expect(description['dc:relation']['rdf:Bag']['rdf:li']).toBe(marking.provenanceUrl);
    expect(description['dc:title']['rdf:Alt']['rdf:li']['#text']).toBe('Small Hours');
    expect(description['dc:description']['rdf:Alt']['rdf:li']['#text']).toBe(markingComment(marking));
    expect(description['@xmpRights:WebStatement']).toBe('https://tunesmith.example/terms#license');
    expect(description['xmpRights:UsageTerms']['rdf:Alt']['rdf:li']['#text']).toBe(
      'Personal, non-commercial use only.',
    );
    expect(description['@xmp:CreateDate']).toBe('2026-08-03T10:20:30.000Z');
  });

  it("carries a measured tempo and key as XMP Dynamic Media's tempo, key and scale type", () => {
    const marked = markWav(master(), { ...marking, analysis: { bpm: 120, key: 'F# minor' } });
    const text = new TextDecoder().decode(chunksOf(marked).find((c) => c.id === '_PMX')?.body);

    const description = xmp.parse(text)['x:xmpmeta']['rdf:RDF']['rdf:Description'];
    expect(description['@xmlns:xmpDM']).toBe('http://ns.adobe.com/xmp/1.0/DynamicMedia/');
    expect(description['@xmpDM:tempo']).toBe('120');
    expect(description['@xmpDM:key']).toBe('F#');
    expect(description['@xmpDM:scaleType']).toBe('Minor');

    const without = new TextDecoder().decode(
      chunksOf(markWav(master(), marking)).find((c) => c.id === '_PMX')?.body,
    );
    expect(without).not.toContain('xmpDM');
  });

  it('carries title, site, comment, tempo and key in an ID3v2.4 tag (id3 chunk), as music-metadata reads them', async () => {
    const marked = markWav(master(), {
      ...marking,
      title: 'Café à minuit',
      analysis: { bpm: 120, key: 'F# minor' },
    });
    expect(chunksOf(marked).filter((c) => c.id === 'id3 ')).toHaveLength(1);

    const { common, native } = await parseBuffer(marked, { mimeType: 'audio/wav' });
    const id3 = Object.fromEntries((native['ID3v2.4'] ?? []).map((t) => [t.id, t.value]));
    expect(id3).toEqual({
      TIT2: 'Café à minuit',
      TPE1: 'Tunesmith',
      COMM: { language: 'eng', descriptor: '', text: markingComment(marking) },
      TBPM: '120',
      TKEY: 'F#m',
    });
    expect(common.bpm).toBe(120);
    expect(common.key).toBe('F#m');
    expect(common.title).toBe('Café à minuit');

    // A major key is its tonic alone; no tempo or key when none was measured.
    const major = await parseBuffer(
      markWav(master(), { ...marking, analysis: { bpm: 96.4, key: 'C major' } }),
      {
        mimeType: 'audio/wav',
      },
    );
    expect([major.common.bpm, major.common.key]).toEqual([96, 'C']);
    const unmeasured = await parseBuffer(markWav(master(), marking), { mimeType: 'audio/wav' });
    expect(unmeasured.native['ID3v2.4']?.map((t) => t.id)).toEqual(['TIT2', 'TPE1', 'COMM']);
    expect([unmeasured.common.bpm, unmeasured.common.key]).toEqual([undefined, undefined]);
  });

  it('keeps fmt, data and every other chunk byte for byte, in order, and the samples read the same', () => {
    const original = master();
    const marked = markWav(original, marking);

    const before = chunksOf(original);
    const after = chunksOf(marked);
    expect(before.map((c) => c.id)).toEqual(['fmt ', 'data', 'tsrp']);
    expect(after.map((c) => c.id)).toEqual(['fmt ', 'data', 'tsrp', 'CSET', 'LIST', '_PMX', 'id3 ']);
    for (let i = 0; i < before.length; i++)
      expect(Buffer.compare(after[i]?.bytes as Uint8Array, before[i]?.bytes as Uint8Array)).toBe(0);
    // The samples start where they started.
    expect(Buffer.compare(marked.subarray(12, 12 + 8 + 16 + 8), original.subarray(12, 12 + 8 + 16 + 8))).toBe(
      0,
    );
    const a = parseWav(original);
    const b = parseWav(marked);
    expect([b.frames, b.channels, b.sampleRate]).toEqual([a.frames, a.channels, a.sampleRate]);
    const x = new Float32Array(a.frames);
    const y = new Float32Array(a.frames);
    for (let c = 0; c < a.channels; c++) {
      a.read(c, 0, x);
      b.read(c, 0, y);
      expect(Buffer.compare(Buffer.from(y.buffer), Buffer.from(x.buffer))).toBe(0);
    }
  });

  it('replaces earlier marking instead of adding to it, so marking again gives the same file', async () => {
    const once = markWav(master(), marking);
    expect(Buffer.compare(markWav(once, marking), once)).toBe(0);

    const renamed = markWav(once, { ...marking, title: 'Later Title', license: null });
    const ids = chunksOf(renamed).map((c) => c.id);
    expect(ids.filter((id) => ['LIST', '_PMX', 'CSET', 'id3 '].includes(id))).toEqual([
      'CSET',
      'LIST',
      '_PMX',
      'id3 ',
    ]);
    const { common } = await parseBuffer(renamed, { mimeType: 'audio/wav' });
    expect(common.title).toBe('Later Title');
    // Without a license the comment says only what made it.
    expect(common.comment?.map((c) => c.text)).toEqual([
      'Made with AI (ACE-Step) on Tunesmith. Provenance: https://tunesmith.example/api/track/t-1/provenance',
    ]);
    const text = new TextDecoder().decode(chunksOf(renamed).find((c) => c.id === '_PMX')?.body);
    expect(text).not.toContain('xmpRights:UsageTerms');
    expect(text).not.toContain('xmpRights:WebStatement');
  });

  it('drops a C2PA manifest the change would invalidate, and keeps LIST chunks that are not INFO', () => {
    const original = master();
    const extra = (id: string, body: string) => {
      const b = new TextEncoder().encode(body);
      const c = new Uint8Array(8 + b.length + (b.length % 2));
      c.set(new TextEncoder().encode(id));
      new DataView(c.buffer).setUint32(4, b.length, true);
      c.set(b, 8);
      return c;
    };
    const withExtras = new Uint8Array([
      ...original,
      ...extra('C2PA', 'jumb...'),
      ...extra('LIST', 'adtlnote'),
    ]);
    new DataView(withExtras.buffer).setUint32(4, withExtras.length - 8, true);
    const ids = chunksOf(markWav(withExtras, marking)).map((c) => c.id);
    expect(ids).toEqual(['fmt ', 'data', 'tsrp', 'LIST', 'CSET', 'LIST', '_PMX', 'id3 ']);
  });

  it('writes titles in UTF-8 and says so (CSET 65001), so accents and other scripts read back', async () => {
    const marked = markWav(master(), { ...marking, title: 'Café à minuit — 夜の歌 <&>' });
    const { common } = await parseBuffer(marked, { mimeType: 'audio/wav' });
    expect(common.title).toBe('Café à minuit — 夜の歌 <&>');
    const text = new TextDecoder().decode(chunksOf(marked).find((c) => c.id === '_PMX')?.body);
    expect(
      xmp.parse(text)['x:xmpmeta']['rdf:RDF']['rdf:Description']['dc:title']['rdf:Alt']['rdf:li']['#text'],
    ).toBe('Café à minuit — 夜の歌 <&>');
  });

  it('gives a data chunk whose size was never filled in its true size before appending', () => {
    const streamed = wavFile([tone(440, 0.1, 8000)], { sampleRate: 8000, dataSize: 0xffffffff });
    const marked = markWav(streamed, marking);
    const data = chunksOf(marked).find((c) => c.id === 'data');
    expect(data?.body.length).toBe(1600);
    expect(parseWav(marked).frames).toBe(800);
  });

  it('refuses what is not a WAV', () => {
    expect(() => markWav(new TextEncoder().encode('ID3 an mp3 after all'), marking)).toThrow(
      AudioFormatError,
    );
  });
});

describe('the model and endpoint in the marking (decision 051)', () => {
  const minimax: FileMarking = {
    ...marking,
    model: 'MiniMax Music 2.5',
    endpoint: 'fal-ai/minimax-music/v2.5',
  };

  it("names the model and its endpoint in the WAV's XMP packet", () => {
    const packet = chunksOf(markWav(master(), minimax)).find((c) => c.id === '_PMX');
    const description = xmp.parse(new TextDecoder().decode(packet?.body))['x:xmpmeta']['rdf:RDF'][
      'rdf:Description'
    ];
    expect(description['@Iptc4xmpExt:AISystemUsed']).toBe('MiniMax Music 2.5');
    expect(description['@Iptc4xmpExt:AISystemVersionUsed']).toBe('fal-ai/minimax-music/v2.5');
    expect(markingComment(minimax)).toContain('Made with AI (MiniMax Music 2.5)');
  });

  it("names them in the Opus copy's Vorbis comments", () => {
    const vorbis = Object.fromEntries(opusComments(minimax));
    expect(vorbis.AISYSTEMUSED).toBe('MiniMax Music 2.5');
    expect(vorbis.AISYSTEMVERSIONUSED).toBe('fal-ai/minimax-music/v2.5');
    expect(Object.fromEntries(opusComments(marking)).AISYSTEMVERSIONUSED).toBeUndefined();
  });
});

describe('the Opus copy', () => {
  /** Real Opus packets are not needed to read the header's tags: a one-byte stand-in per frame. */
  const standIn: OpusEncoderFactory = () => ({
    lookahead: 312,
    vendor: 'stand-in',
    encode: () => Uint8Array.of(0xfc),
    close: () => undefined,
  });

  it('carries the marking in the OpusTags Vorbis comments, as music-metadata reads them', async () => {
    const ogg = encodeOggOpus(parseWav(master()), standIn, { comments: opusComments(marking) });

    const { common, native } = await parseBuffer(ogg, { mimeType: 'audio/ogg' });
    expect(common.title).toBe('Small Hours');
    expect(common.artist).toBe('Tunesmith');
    expect(common.label).toEqual(['Tunesmith']);
    expect(common.date).toBe('2026-08-03');
    expect(common.comment?.map((c) => c.text)).toEqual([markingComment(marking)]);
    expect(common.license).toBe('Personal, non-commercial use only.');
    const vorbis = Object.fromEntries((native.vorbis ?? []).map((t) => [t.id, t.value]));
    expect(vorbis).toMatchObject({
      DIGITALSOURCETYPE: DIGITAL_SOURCE_TYPE,
      PROVENANCE: marking.provenanceUrl,
      AISYSTEMUSED: 'ACE-Step',
      LICENSEURL: 'https://tunesmith.example/terms#license',
    });
  });

  it('carries a measured tempo and key as BPM and KEY, as music-metadata reads them', async () => {
    const comments = opusComments({ ...marking, analysis: { bpm: 96, key: 'A minor' } });
    const ogg = encodeOggOpus(parseWav(master()), standIn, { comments });

    const { common } = await parseBuffer(ogg, { mimeType: 'audio/ogg' });
    expect(common.bpm).toBe(96);
    expect(common.key).toBe('A minor');
    expect(opusComments(marking).map(([field]) => field)).not.toContain('BPM');
  });

  it('without a license has no license fields', () => {
    const fields = opusComments({ ...marking, license: null }).map(([field]) => field);
    expect(fields).not.toContain('LICENSE');
    expect(fields).toContain('PROVENANCE');
  });
});
