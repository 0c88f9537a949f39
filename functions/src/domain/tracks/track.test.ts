import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { audioMediaType, playbackAudio, storedTrackAudio, toTrack } from './track';

describe('track audio', () => {
  const wav = 's3://tracks/tracks/t1.wav';
  const opus = 's3://tracks/tracks/t1.opus';

  it('players get the compressed copy when there is one, else the WAV', () => {
    expect(toTrack(aGeneration({ audioUrl: wav, streamAudioUrl: opus })).audioUrl).toBe(opus);
    expect(toTrack(aGeneration({ audioUrl: wav, streamAudioUrl: null })).audioUrl).toBe(wav);
    // Tracks from before the copy have no such field at all.
    expect(toTrack(aGeneration({ audioUrl: wav })).audioUrl).toBe(wav);
    expect(playbackAudio({ audioUrl: null, streamAudioUrl: null })).toBeNull();
    expect(toTrack(aGeneration({ streamAudioUrl: opus }))).not.toHaveProperty('streamAudioUrl');
  });

  it('tells stored audio’s media type from its name', () => {
    expect(audioMediaType(opus)).toBe('audio/ogg');
    expect(audioMediaType(wav)).toBe('audio/wav');
    expect(audioMediaType('https://provider.example/out/Song.MP3?sig=x.wav#t')).toBe('audio/mpeg');
    expect(audioMediaType('s3://tracks/tracks/t1')).toBeUndefined();
    expect(audioMediaType('s3://tracks/tracks/t1.peaks.json')).toBeUndefined();
  });

  it('a track keeps its WAV, compressed copy and peaks, and all go with it', () => {
    const peaks = 's3://tracks/tracks/t1.peaks.json';
    expect(storedTrackAudio({ audioUrl: wav, streamAudioUrl: opus, peaksUrl: peaks })).toEqual([
      wav,
      opus,
      peaks,
    ]);
    expect(storedTrackAudio({ audioUrl: wav, streamAudioUrl: opus })).toEqual([wav, opus]);
    expect(storedTrackAudio({ audioUrl: wav })).toEqual([wav]);
    expect(storedTrackAudio({ audioUrl: null, streamAudioUrl: null })).toEqual([]);
  });
});
