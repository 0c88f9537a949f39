/**
 * The little CBOR (RFC 8949) a COSE_Sign1 signature needs: unsigned and
 * negative integers, byte and text strings, arrays, maps with entries in the
 * order given (write them sorted for deterministic encoding), null and tags.
 */

/** A tagged item (major type 6), e.g. COSE_Sign1's tag 18. */
export class CborTag {
  constructor(
    readonly tag: number,
    readonly value: CborValue,
  ) {}
}

/** A map (major type 5) with its entries in the order they are written. */
export class CborMap {
  constructor(readonly entries: [CborValue, CborValue][]) {}
}

export type CborValue = number | string | Uint8Array | null | CborValue[] | CborMap | CborTag;

function head(major: number, length: number, out: number[]): void {
  if (!Number.isSafeInteger(length) || length < 0)
    throw new RangeError(`CBOR length out of range: ${length}`);
  const m = major << 5;
  if (length < 24) out.push(m | length);
  else if (length < 0x100) out.push(m | 24, length);
  else if (length < 0x10000) out.push(m | 25, length >> 8, length & 0xff);
  else if (length < 0x100000000)
    out.push(m | 26, (length >>> 24) & 0xff, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff);
  else throw new RangeError('CBOR lengths above 2^32 are not written here');
}

/** Encodes `value` in CBOR's preferred (shortest) form. */
export function encodeCbor(value: CborValue): Uint8Array {
  const out: number[] = [];
  const chunks: Uint8Array[] = [];
  const flush = () => {
    if (out.length) chunks.push(Uint8Array.from(out.splice(0)));
  };
  const write = (v: CborValue): void => {
    if (v === null) out.push(0xf6);
    else if (typeof v === 'number') {
      if (!Number.isInteger(v)) throw new RangeError('Only integers are written here');
      if (v >= 0) head(0, v, out);
      else head(1, -1 - v, out);
    } else if (typeof v === 'string') {
      const bytes = new TextEncoder().encode(v);
      head(3, bytes.length, out);
      flush();
      chunks.push(bytes);
    } else if (v instanceof Uint8Array) {
      head(2, v.length, out);
      flush();
      chunks.push(v);
    } else if (Array.isArray(v)) {
      head(4, v.length, out);
      for (const item of v) write(item);
    } else if (v instanceof CborMap) {
      head(5, v.entries.length, out);
      for (const [key, item] of v.entries) {
        write(key);
        write(item);
      }
    } else {
      head(6, v.tag, out);
      write(v.value);
    }
  };
  write(value);
  flush();
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}
