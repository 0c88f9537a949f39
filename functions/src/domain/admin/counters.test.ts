import { describe, expect, it } from 'vitest';
import { dayCountsOfGeneration, previousUtcDay, trackTotalsDelta, utcDay } from './counters';

const track = (visibility: 'public' | 'private', showInGallery = true) => ({ visibility, showInGallery });

describe('trackTotalsDelta', () => {
  it('counts a created and a deleted track once, by visibility', () => {
    expect(trackTotalsDelta(undefined, track('public'))).toEqual({ tracks: 1, publicTracks: 1 });
    expect(trackTotalsDelta(undefined, track('private'))).toEqual({ tracks: 1, privateTracks: 1 });
    expect(trackTotalsDelta(track('public', false), undefined)).toEqual({
      tracks: -1,
      publicTracks: -1,
      hiddenPublicTracks: -1,
    });
  });

  it('moves a track between public and private, and in and out of hiding', () => {
    expect(trackTotalsDelta(track('public'), track('private'))).toEqual({
      publicTracks: -1,
      privateTracks: 1,
    });
    expect(trackTotalsDelta(track('public'), track('public', false))).toEqual({ hiddenPublicTracks: 1 });
    // A hidden track made private is no longer hidden from the gallery it is not in.
    expect(trackTotalsDelta(track('public', false), track('private', false))).toEqual({
      publicTracks: -1,
      privateTracks: 1,
      hiddenPublicTracks: -1,
    });
    expect(trackTotalsDelta(track('private'), track('private'))).toEqual({});
  });
});

describe('days', () => {
  it('uses the UTC day and counts a generation by its type', () => {
    expect(utcDay(new Date('2026-11-25T23:59:59-05:00'))).toBe('2026-11-26');
    expect(previousUtcDay('2026-03-01')).toBe('2026-02-28');
    expect(dayCountsOfGeneration('audio-to-music')).toEqual({ generations: 1, audioToMusic: 1 });
    expect(dayCountsOfGeneration('text-to-music')).toEqual({ generations: 1, textToMusic: 1 });
  });
});
