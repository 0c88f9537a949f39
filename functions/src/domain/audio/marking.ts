/**
 * The marking every delivered file carries: that it was made by a model
 * (EU AI Act, Article 50(2): machine-readable), what made it, where it was
 * made and where its provenance record is read.
 *
 * - WAV: a RIFF `LIST`/`INFO` chunk (INAM title, IART and ISFT the site,
 *   ICMT the comment, ICRD the date) after a `CSET` chunk that declares its
 *   text UTF-8 (code page 65001), and an XMP packet in a `_PMX` chunk
 *   (Adobe's place for XMP in RIFF) with `Iptc4xmpExt:DigitalSourceType` =
 *   trainedAlgorithmicMedia and the provenance record's URL as `dc:relation`,
 *   and an ID3v2.4 tag in an `id3 ` chunk (title, the site as artist, the
 *   comment, and the measured tempo and key) for the players and DJ tools
 *   that read a WAV's ID3 tag and neither INFO nor XMP.
 * - Ogg Opus: the same in the OpusTags header's Vorbis comments.
 *
 * Marking a WAV keeps every other chunk byte for byte (the `fmt ` and `data`
 * chunks, and the embedded provider's render parameters that extend and
 * repaint read) and replaces earlier marking (and a C2PA manifest, which the
 * change would invalidate), so marking a file twice gives the same file.
 */
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { AudioFormatError } from './pcm';

/** What a file says about itself. */
export interface FileMarking {
  /** The track's title when it completed (a later rename does not rewrite the files). */
  title: string;
  /** The site's name (Site Settings, General), e.g. "Tunesmith". */
  siteName: string;
  /** The model that made it, e.g. "ACE-Step". */
  model: string;
  /** The provider endpoint it ran on, e.g. "fal-ai/ace-step" (decision 051); absent on markings from before. */
  endpoint?: string;
  /** Where the track's provenance record is read (`GET /api/track/{id}/provenance`, absolute). */
  provenanceUrl: string;
  /** When the track was made (ISO 8601). */
  createdAt: string;
  /** The plan's license at creation, when the track has one. */
  license?: { summary: string; termsUrl: string } | null;
  /** Tempo (BPM) and key ("A minor") measured from the audio, when they were. */
  analysis?: { bpm: number; key: string } | null;
}

/** The sentence every file carries, in its comment field. */
export function markingComment(marking: FileMarking): string {
  const made = `Made with AI (${marking.model}) on ${marking.siteName}. Provenance: ${marking.provenanceUrl}`;
  return marking.license ? `${made} License: ${marking.license.summary}` : made;
}

/** The day part of an ISO instant (RIFF's ICRD is "YYYY-MM-DD"). */
const day = (iso: string) => iso.slice(0, 10);

// RIFF.

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const utf8 = (text: string) => new TextEncoder().encode(text);

/** A chunk: id, 32-bit little-endian size, body, and a pad byte when the size is odd. */
function chunk(id: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + body.length + (body.length % 2));
  out.set(ascii(id), 0);
  new DataView(out.buffer).setUint32(4, body.length, true);
  out.set(body, 8);
  return out;
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** A text field of a `LIST`/`INFO` chunk: UTF-8, NUL-terminated. */
const infoField = (id: string, text: string) => chunk(id, concat([utf8(text), new Uint8Array(1)]));

/** The `LIST`/`INFO` chunk of a marking. */
export function wavInfoChunk(marking: FileMarking): Uint8Array {
  return chunk(
    'LIST',
    concat([
      ascii('INFO'),
      infoField('INAM', marking.title),
      infoField('IART', marking.siteName),
      infoField('ICMT', markingComment(marking)),
      infoField('ICRD', day(marking.createdAt)),
      infoField('ISFT', marking.siteName),
    ]),
  );
}

/**
 * The `CSET` chunk (RIFF MCI): code page 65001, so readers take the INFO
 * text as UTF-8; country, language and dialect left unset.
 */
function charsetChunk(): Uint8Array {
  const body = new Uint8Array(8);
  new DataView(body.buffer).setUint16(0, 65001, true);
  return chunk('CSET', body);
}

const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** The namespaces of the XMP packet. */
export const XMP_NAMESPACES = {
  x: 'adobe:ns:meta/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  xmpRights: 'http://ns.adobe.com/xap/1.0/rights/',
  Iptc4xmpExt: 'http://iptc.org/std/Iptc4xmpExt/2008-02-29/',
  xmpDM: 'http://ns.adobe.com/xmp/1.0/DynamicMedia/',
} as const;

/**
 * XMP's Dynamic Media fields for a key: `xmpDM:key` names the tonic (one of
 * C, C#, … B, the spelling keys are stored in) and `xmpDM:scaleType` the mode.
 */
function xmpKey(key: string): { tonic: string; scale: string } | undefined {
  const m = /^([A-G]#?) (major|minor)$/.exec(key);
  return m ? { tonic: m[1] as string, scale: m[2] === 'major' ? 'Major' : 'Minor' } : undefined;
}

/**
 * The XMP packet: IPTC's digital source type and the model (IPTC Photo
 * Metadata's `AISystemUsed`), Dublin Core's title, description (the comment)
 * and relation (the provenance record), the creating tool and date, the
 * license as XMP rights (its summary and the terms' URL) when there is one,
 * and the measured tempo and key as Dynamic Media's `tempo`, `key` and `scaleType`.
 */
export function xmpPacket(marking: FileMarking): string {
  const alt = (text: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${xml(text)}</rdf:li></rdf:Alt>`;
  const ns = XMP_NAMESPACES;
  const license = marking.license;
  const tempo = marking.analysis ? Math.round(marking.analysis.bpm) : undefined;
  const key = marking.analysis ? xmpKey(marking.analysis.key) : undefined;
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    `<x:xmpmeta xmlns:x="${ns.x}">`,
    ` <rdf:RDF xmlns:rdf="${ns.rdf}">`,
    `  <rdf:Description rdf:about=""`,
    `    xmlns:dc="${ns.dc}"`,
    `    xmlns:xmp="${ns.xmp}"`,
    `    xmlns:xmpRights="${ns.xmpRights}"`,
    `    xmlns:Iptc4xmpExt="${ns.Iptc4xmpExt}"`,
    ...(tempo || key ? [`    xmlns:xmpDM="${ns.xmpDM}"`] : []),
    `    Iptc4xmpExt:DigitalSourceType="${xml(DIGITAL_SOURCE_TYPE)}"`,
    `    Iptc4xmpExt:AISystemUsed="${xml(marking.model)}"`,
    // The endpoint names the model's version as fal runs it (IPTC's "AI System Version Used").
    ...(marking.endpoint ? [`    Iptc4xmpExt:AISystemVersionUsed="${xml(marking.endpoint)}"`] : []),
    `    xmp:CreatorTool="${xml(marking.siteName)}"`,
    `    xmp:CreateDate="${xml(marking.createdAt)}"`,
    ...(license ? [`    xmpRights:WebStatement="${xml(license.termsUrl)}"`] : []),
    ...(tempo ? [`    xmpDM:tempo="${tempo}"`] : []),
    ...(key ? [`    xmpDM:key="${key.tonic}"`, `    xmpDM:scaleType="${key.scale}"`] : []),
    '  >',
    `   <dc:title>${alt(marking.title)}</dc:title>`,
    `   <dc:description>${alt(markingComment(marking))}</dc:description>`,
    `   <dc:relation><rdf:Bag><rdf:li>${xml(marking.provenanceUrl)}</rdf:li></rdf:Bag></dc:relation>`,
    ...(license ? [`   <xmpRights:UsageTerms>${alt(license.summary)}</xmpRights:UsageTerms>`] : []),
    '  </rdf:Description>',
    ' </rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

// ID3v2.4 (id3.org, "ID3 tag version 2.4.0 - Main Structure" and "- Native Frames").

/** A 28-bit size in four bytes of seven bits each (ID3v2.4's "synchsafe" integer). */
function synchsafe(n: number): Uint8Array {
  return Uint8Array.of((n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f);
}

/** A frame: id, synchsafe size, no flags, body. */
const id3Frame = (id: string, body: Uint8Array) =>
  concat([ascii(id), synchsafe(body.length), new Uint8Array(2), body]);

/** Text encoding 3: UTF-8. */
const UTF8 = Uint8Array.of(3);

/** A text information frame (TIT2, TPE1, TBPM, TKEY…): UTF-8. */
const id3Text = (id: string, text: string) => id3Frame(id, concat([UTF8, utf8(text)]));

/**
 * A key as ID3's TKEY writes it: at most three characters, the tonic with
 * `#` or `b` and `m` for minor ("A#m", "C"). Undefined for a key we do not spell.
 */
export function id3Key(key: string): string | undefined {
  const m = /^([A-G]#?) (major|minor)$/.exec(key);
  return m ? `${m[1]}${m[2] === 'minor' ? 'm' : ''}` : undefined;
}

/**
 * The ID3v2.4 tag of a marking: title (TIT2), the site as artist (TPE1), the
 * comment (COMM, English, no description) and, when measured, the tempo
 * (TBPM, whole BPM) and the key (TKEY). No padding, no unsynchronisation.
 */
export function id3Tag(marking: FileMarking): Uint8Array {
  const key = marking.analysis ? id3Key(marking.analysis.key) : undefined;
  const frames = concat([
    id3Text('TIT2', marking.title),
    id3Text('TPE1', marking.siteName),
    id3Frame('COMM', concat([UTF8, ascii('eng'), new Uint8Array(1), utf8(markingComment(marking))])),
    ...(marking.analysis ? [id3Text('TBPM', String(Math.round(marking.analysis.bpm)))] : []),
    ...(key ? [id3Text('TKEY', key)] : []),
  ]);
  return concat([ascii('ID3'), Uint8Array.of(4, 0, 0), synchsafe(frames.length), frames]);
}

/** Top-level chunks of a RIFF/WAVE file: id, where its header starts, its body's size. */
export interface RiffChunk {
  id: string;
  offset: number;
  size: number;
  /** Where the next chunk starts (after the pad byte of an odd size). */
  end: number;
}

/**
 * The top-level chunks of a WAV. A data chunk whose size was never filled in
 * (0 or 0xFFFFFFFF) or runs past the end is taken to the end of the file.
 * Throws {@link AudioFormatError} when it is not a RIFF/WAVE file.
 */
export function riffChunks(bytes: Uint8Array): RiffChunk[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE')
    throw new AudioFormatError('Not a WAV file');
  const chunks: RiffChunk[] = [];
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    let size = view.getUint32(offset + 4, true);
    const available = bytes.length - offset - 8;
    if (size > available) {
      if (id !== 'data') break; // a truncated trailing chunk: not kept
      size = available;
    } else if (id === 'data' && (size === 0 || size === 0xffffffff)) size = available;
    chunks.push({ id, offset, size, end: Math.min(bytes.length, offset + 8 + size + (size % 2)) });
    offset += 8 + size + (size % 2);
  }
  if (!chunks.some((c) => c.id === 'data')) throw new AudioFormatError('No data chunk');
  return chunks;
}

/** Chunks the marking writes (or a C2PA manifest it would invalidate): replaced, never kept twice. */
function isMarking(bytes: Uint8Array, c: RiffChunk): boolean {
  if (['_PMX', 'CSET', 'C2PA', 'id3 ', 'ID3 '].includes(c.id)) return true;
  if (c.id !== 'LIST' || c.size < 4) return false;
  const at = c.offset + 8;
  return String.fromCharCode(...bytes.subarray(at, at + 4)) === 'INFO';
}

/**
 * The WAV with the marking: every chunk it had except earlier marking, byte
 * for byte and in order, then `CSET`, `LIST`/`INFO`, `_PMX` and `id3 `. The samples
 * (and every offset up to the data chunk's end) are unchanged. Throws
 * {@link AudioFormatError} when the bytes are not a WAV.
 */
export function markWav(wav: Uint8Array, marking: FileMarking): Uint8Array {
  const chunks = riffChunks(wav);
  const kept = chunks.filter((c) => !isMarking(wav, c));
  const added = [
    charsetChunk(),
    wavInfoChunk(marking),
    chunk('_PMX', utf8(xmpPacket(marking))),
    chunk('id3 ', id3Tag(marking)),
  ];
  const keptBytes = kept.reduce((n, c) => n + 8 + c.size + (c.size % 2), 0);
  const out = new Uint8Array(12 + keptBytes + added.reduce((n, a) => n + a.length, 0));
  const view = new DataView(out.buffer);
  out.set(wav.subarray(0, 12), 0);
  let at = 12;
  for (const c of kept) {
    // The chunk with its pad byte (a file missing that at its very end gets a zero).
    out.set(wav.subarray(c.offset, c.end), at);
    // A data chunk read to the end of the file gets its true size (the bytes after it are chunks now).
    view.setUint32(at + 4, c.size, true);
    at += 8 + c.size + (c.size % 2);
  }
  for (const a of added) {
    out.set(a, at);
    at += a.length;
  }
  view.setUint32(4, out.length - 8, true);
  return out;
}

// Ogg Opus.

/** A Vorbis comment (RFC 7845, 5.2): a field name and its value. */
export type VorbisComment = [field: string, value: string];

/**
 * The Vorbis comments of the players' copy: title, the site as artist and
 * organisation, the comment, the date, the source type, the provenance URL
 * and, when the track has one, the license.
 */
export function opusComments(marking: FileMarking): VorbisComment[] {
  return [
    ['TITLE', marking.title],
    ['ARTIST', marking.siteName],
    ['ORGANIZATION', marking.siteName],
    ['COMMENT', markingComment(marking)],
    ['DATE', day(marking.createdAt)],
    ['DIGITALSOURCETYPE', DIGITAL_SOURCE_TYPE],
    ['AISYSTEMUSED', marking.model],
    ...(marking.endpoint ? ([['AISYSTEMVERSIONUSED', marking.endpoint]] as VorbisComment[]) : []),
    ['PROVENANCE', marking.provenanceUrl],
    ...(marking.license
      ? ([
          ['LICENSE', marking.license.summary],
          ['LICENSEURL', marking.license.termsUrl],
        ] as VorbisComment[])
      : []),
    ...(marking.analysis
      ? ([
          ['BPM', String(Math.round(marking.analysis.bpm))],
          ['KEY', marking.analysis.key],
        ] as VorbisComment[])
      : []),
  ];
}
