import { describe, expect, it } from 'vitest';
import { aGeneration } from '../testing/fixtures';
import { type AudioLinker, playableTrack } from './audio-links';

const link: AudioLinker = async (stored) => (stored ? `https://site.example/signed?of=${stored}` : null);

describe('playableTrack', () => {
  it('signs the audio and the peaks alike', async () => {
    const track = await playableTrack(
      aGeneration({
        audioUrl: 's3://tracks/tracks/t1.wav',
        streamAudioUrl: 's3://tracks/tracks/t1.opus',
        peaksUrl: 's3://tracks/tracks/t1.peaks.json',
      }),
      link,
    );
    expect(track.audioUrl).toBe('https://site.example/signed?of=s3://tracks/tracks/t1.opus');
    expect(track.peaksUrl).toBe('https://site.example/signed?of=s3://tracks/tracks/t1.peaks.json');
  });

  it('leaves a track without peaks (not made yet, or from before them) with null', async () => {
    const track = await playableTrack(aGeneration({ audioUrl: 's3://tracks/tracks/t1.wav' }), link);
    expect(track.peaksUrl).toBeNull();
    expect(track.audioUrl).toBe('https://site.example/signed?of=s3://tracks/tracks/t1.wav');
  });
});
