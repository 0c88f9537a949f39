import { describe, expect, it } from 'vitest';
import { OGG_BEGINNING_OF_STREAM, OGG_END_OF_STREAM, OggStreamWriter, oggCrc32, oggPage } from './ogg';
import { readOggPages } from './testing';

const bytesOf = (size: number, fill: number) => new Uint8Array(size).fill(fill);

describe('oggCrc32', () => {
  it('is CRC-32 with polynomial 0x04c11db7, initial 0, unreflected and without a final XOR', () => {
    // The POSIX cksum CRC (check value 0x765E7680) differs only by its final XOR with 0xFFFFFFFF.
    expect(oggCrc32(new TextEncoder().encode('123456789'))).toBe(0x89a1897f);
    expect(oggCrc32(new Uint8Array(0))).toBe(0);
  });
});

describe('oggPage', () => {
  it('writes the header, lacing values and a CRC a reader accepts', () => {
    const page = oggPage({
      serial: 0xdeadbeef,
      sequence: 7,
      granule: 123456789012n,
      flags: OGG_BEGINNING_OF_STREAM,
      packets: [bytesOf(10, 1), bytesOf(255, 2), bytesOf(600, 3), new Uint8Array(0)],
    });
    const [read] = readOggPages(page);
    expect(read).toMatchObject({
      flags: OGG_BEGINNING_OF_STREAM,
      granule: 123456789012n,
      serial: 0xdeadbeef,
      sequence: 7,
      crcOk: true,
      // 255 bytes end with a 0 lacing value; 600 = 255 + 255 + 90.
      segments: [10, 255, 0, 255, 255, 90, 0],
    });
    expect(read?.packets.map((p) => p.length)).toEqual([10, 255, 600, 0]);
    expect(read?.packets[2]?.every((b) => b === 3)).toBe(true);

    const tampered = page.slice();
    tampered[page.length - 1] = (page[page.length - 1] as number) ^ 1;
    expect(readOggPages(tampered)[0]?.crcOk).toBe(false);
  });

  it('refuses more than 255 segments', () => {
    expect(() =>
      oggPage({ serial: 1, sequence: 0, granule: 0n, flags: 0, packets: [bytesOf(255 * 255, 0)] }),
    ).toThrow(RangeError);
  });
});

describe('OggStreamWriter', () => {
  it('puts headers on pages of their own, groups packets by duration and size, and ends the stream', () => {
    const writer = new OggStreamWriter(42, 1000n);
    writer.header(bytesOf(19, 1));
    writer.header(bytesOf(30, 2));
    let granule = 0n;
    for (let i = 0; i < 30; i++) {
      granule += 100n;
      // Every fourth packet needs two lacing values.
      writer.packet(bytesOf(i % 4 === 0 ? 300 : 100, i), granule);
    }
    const pages = readOggPages(writer.finish(2950n));

    expect(pages.every((p) => p.crcOk && p.serial === 42)).toBe(true);
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_, i) => i));
    expect(pages[0]).toMatchObject({ flags: OGG_BEGINNING_OF_STREAM, granule: 0n });
    expect(pages[0]?.packets).toHaveLength(1);
    expect(pages[1]).toMatchObject({ flags: 0, granule: 0n });
    expect(pages[1]?.packets).toHaveLength(1);
    const audio = pages.slice(2);
    // At most 1000 granule units (10 packets) a page; granules grow; only the last page ends the stream.
    expect(audio.map((p) => p.packets.length)).toEqual([10, 10, 10]);
    expect(audio.map((p) => p.granule)).toEqual([1000n, 2000n, 2950n]);
    expect(audio.map((p) => p.flags)).toEqual([0, 0, OGG_END_OF_STREAM]);
    expect(audio.flatMap((p) => p.packets).map((p) => p[0])).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('starts a new page before a packet that would pass 255 segments', () => {
    const writer = new OggStreamWriter(1, 1_000_000n);
    writer.header(bytesOf(19, 0));
    for (let i = 1; i <= 5; i++) writer.packet(bytesOf(255 * 60, i), BigInt(i * 960));
    const pages = readOggPages(writer.finish(4800n)).slice(1);
    // 61 segments a packet: four fit (244), the fifth goes on a page of its own.
    expect(pages.map((p) => p.segments.length)).toEqual([244, 61]);
    expect(pages.map((p) => p.granule)).toEqual([3840n, 4800n]);
  });

  it('cannot end a stream without a packet on its last page', () => {
    const writer = new OggStreamWriter(1, 1000n);
    expect(() => writer.finish(0n)).toThrow();
  });
});
