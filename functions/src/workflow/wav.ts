/** Duration in seconds of a PCM WAV file from its header, or undefined when it is not one. */
export function wavDurationSeconds(bytes: Uint8Array): number | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ' && body + 12 <= bytes.length) byteRate = view.getUint32(body + 8, true);
    if (id === 'data') {
      if (!byteRate) return undefined;
      // Streamed files may leave the size at 0 or 0xFFFFFFFF: count what is there.
      const available = bytes.length - body;
      const dataSize = size === 0 || size === 0xffffffff || size > available ? available : size;
      return dataSize / byteRate;
    }
    offset = body + size + (size % 2);
  }
  return undefined;
}
