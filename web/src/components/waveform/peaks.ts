/**
 * A track's waveform as the player draws it: the top and bottom outline (each
 * point's loudest positive and negative sample, -1..1) and the audio's length.
 */
export interface Peaks {
  /** `[maxima, minima]`: wavesurfer draws the first channel above the centre line and the second below. */
  channels: [number[], number[]];
  /** Seconds covered by the points. */
  duration: number;
}

function isIntegerArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((n) => Number.isInteger(n));
}

/**
 * Reads audiowaveform's JSON format (version 2; 8 or 16 bits; any number of
 * channels, interleaved `[min, max]` per channel and point) into {@link Peaks}.
 * Several channels fold into one outline. Anything else is an error: the
 * player then keeps its plain seek slider.
 */
export function parsePeaks(json: unknown): Peaks {
  if (typeof json !== 'object' || json === null) throw new Error('Peaks are not a JSON object');
  const {
    version,
    channels = 1,
    sample_rate,
    samples_per_pixel,
    bits,
    length,
    data,
  } = json as Record<string, unknown>;
  if (version !== 2) throw new Error('Peaks are not audiowaveform version 2');
  if (bits !== 8 && bits !== 16) throw new Error('Peaks have 8 or 16 bits');
  if (!Number.isInteger(channels) || (channels as number) < 1) throw new Error('Peaks need a channel count');
  if (!Number.isInteger(length) || (length as number) < 1) throw new Error('Peaks are empty');
  if (typeof sample_rate !== 'number' || sample_rate <= 0) throw new Error('Peaks need a sample rate');
  if (!Number.isInteger(samples_per_pixel) || (samples_per_pixel as number) < 1) {
    throw new Error('Peaks need samples per pixel');
  }
  const count = length as number;
  const perPoint = 2 * (channels as number);
  if (!isIntegerArray(data) || data.length !== count * perPoint) {
    throw new Error('Peaks data does not match their length');
  }
  const scale = bits === 8 ? 128 : 32768;
  const maxima = new Array<number>(count);
  const minima = new Array<number>(count);
  for (let point = 0; point < count; point++) {
    let low = 0;
    let high = 0;
    for (let channel = 0; channel < perPoint; channel += 2) {
      low = Math.min(low, data[point * perPoint + channel] as number);
      high = Math.max(high, data[point * perPoint + channel + 1] as number);
    }
    maxima[point] = Math.min(1, high / scale);
    minima[point] = Math.max(-1, low / scale);
  }
  return { channels: [maxima, minima], duration: (count * (samples_per_pixel as number)) / sample_rate };
}

/** Peaks already fetched, by the link's path: the signature in its query changes, the file never does. */
const cache = new Map<string, Promise<Peaks>>();

/** Which peaks file a link names, whatever its signature: links to the same file share one fetch. */
export function peaksFileKey(url: string): string {
  return url.split('?')[0] ?? url;
}

/** Fetches and reads a track's peaks once per file; a failed fetch is tried again next time. */
export function loadPeaks(url: string): Promise<Peaks> {
  const key = peaksFileKey(url);
  const cached = cache.get(key);
  if (cached) return cached;
  const loading = fetch(url)
    .then((response) => {
      if (!response.ok) throw new Error(`Peaks answered ${response.status}`);
      return response.json();
    })
    .then(parsePeaks);
  cache.set(key, loading);
  loading.catch(() => cache.delete(key));
  return loading;
}

/** Forgets every fetched peaks file (tests). */
export function clearPeaksCache(): void {
  cache.clear();
}
