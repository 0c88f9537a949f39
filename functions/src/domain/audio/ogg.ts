/**
 * The Ogg container (RFC 3533): packets in pages, each page with a granule
 * position and a CRC. Only what one logical stream needs: packets never span
 * pages here, which keeps every page independently decodable for seeking.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04c11db7, initial value 0, not reflected, no final XOR. */
export function oggCrc32(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++)
    crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ (bytes[i] as number)) & 0xff] as number)) >>> 0;
  return crc;
}

/** Header type flags of a page. */
export const OGG_CONTINUED = 0x01;
export const OGG_BEGINNING_OF_STREAM = 0x02;
export const OGG_END_OF_STREAM = 0x04;

const HEADER_SIZE = 27;
const MAX_SEGMENTS = 255;

/** Lacing values a packet takes: one per 255 bytes, and a last one below 255 (0 when it ends on 255). */
const segmentsOf = (size: number) => Math.floor(size / 255) + 1;

/** One page from whole packets; `granule` is the position after its last packet. */
export function oggPage(options: {
  serial: number;
  sequence: number;
  granule: bigint;
  flags: number;
  packets: Uint8Array[];
}): Uint8Array {
  const lacing: number[] = [];
  let bodySize = 0;
  for (const packet of options.packets) {
    for (let left = packet.length; ; left -= 255) {
      lacing.push(Math.min(left, 255));
      if (left < 255) break;
    }
    bodySize += packet.length;
  }
  if (lacing.length > MAX_SEGMENTS) throw new RangeError('Too many segments for one Ogg page');
  const page = new Uint8Array(HEADER_SIZE + lacing.length + bodySize);
  const view = new DataView(page.buffer);
  page.set([0x4f, 0x67, 0x67, 0x53], 0); // "OggS"
  page[4] = 0; // version
  page[5] = options.flags;
  view.setBigInt64(6, options.granule, true);
  view.setUint32(14, options.serial >>> 0, true);
  view.setUint32(18, options.sequence >>> 0, true);
  // CRC (22..25) is computed over the page with these bytes zero.
  page[26] = lacing.length;
  page.set(lacing, HEADER_SIZE);
  let at = HEADER_SIZE + lacing.length;
  for (const packet of options.packets) {
    page.set(packet, at);
    at += packet.length;
  }
  view.setUint32(22, oggCrc32(page), true);
  return page;
}

/**
 * Writes one logical stream: header packets each on a page of their own, then
 * audio packets gathered into pages of at most `maxPageDuration` (granule
 * units) so a player seeking by bisection lands close; the last page carries
 * the end-of-stream flag.
 */
export class OggStreamWriter {
  private readonly pages: Uint8Array[] = [];
  private pending: Uint8Array[] = [];
  private pendingSegments = 0;
  private pendingGranule = 0n;
  private pageStartGranule: bigint | undefined;
  private sequence = 0;
  private finished = false;

  constructor(
    private readonly serial: number,
    private readonly maxPageDuration: bigint,
  ) {}

  /** A header packet on a page of its own, granule 0 (the first one opens the stream). */
  header(packet: Uint8Array): void {
    this.flush(0);
    this.pending.push(packet);
    this.pendingSegments = segmentsOf(packet.length);
    this.pendingGranule = 0n;
    this.flush(0);
  }

  /** An audio packet; `granule` is the stream position after it. */
  packet(packet: Uint8Array, granule: bigint): void {
    const segments = segmentsOf(packet.length);
    if (
      this.pending.length > 0 &&
      (this.pendingSegments + segments > MAX_SEGMENTS ||
        granule - (this.pageStartGranule ?? 0n) > this.maxPageDuration)
    )
      this.flush(0);
    if (this.pending.length === 0) this.pageStartGranule = this.pendingGranule;
    this.pending.push(packet);
    this.pendingSegments += segments;
    this.pendingGranule = granule;
  }

  /**
   * Ends the stream: the last page gets the end-of-stream flag and
   * `finalGranule` (less than the packets' total to trim the end).
   */
  finish(finalGranule: bigint): Uint8Array {
    if (this.finished) throw new Error('The Ogg stream is already finished');
    if (this.pending.length === 0) throw new Error('An Ogg stream ends on a page with a packet');
    this.pendingGranule = finalGranule;
    this.flush(OGG_END_OF_STREAM);
    this.finished = true;
    const out = new Uint8Array(this.pages.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const page of this.pages) {
      out.set(page, at);
      at += page.length;
    }
    return out;
  }

  private flush(extraFlags: number): void {
    if (this.pending.length === 0) return;
    const flags = (this.sequence === 0 ? OGG_BEGINNING_OF_STREAM : 0) | extraFlags;
    this.pages.push(
      oggPage({
        serial: this.serial,
        sequence: this.sequence,
        granule: this.pendingGranule,
        flags,
        packets: this.pending,
      }),
    );
    this.sequence += 1;
    this.pending = [];
    this.pendingSegments = 0;
  }
}
