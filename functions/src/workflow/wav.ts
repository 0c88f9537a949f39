import { AudioFormatError } from '../domain/audio/pcm';
import { parseWav } from '../domain/audio/wav';

/** Duration in seconds of a WAV file from its header, or undefined when it is not one we read. */
export function wavDurationSeconds(bytes: Uint8Array): number | undefined {
  try {
    const { frames, sampleRate } = parseWav(bytes);
    return frames / sampleRate;
  } catch (error) {
    if (error instanceof AudioFormatError) return undefined;
    throw error;
  }
}
