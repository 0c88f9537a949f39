import { describe, expect, it } from 'vitest';
import { isInProgress } from './tracks';

describe('isInProgress', () => {
  it('is true while a track is pending or generating, including the provider word processing', () => {
    expect(isInProgress('pending')).toBe(true);
    expect(isInProgress('generating')).toBe(true);
    expect(isInProgress('processing')).toBe(true);
  });

  it('is false once a track has finished, either way', () => {
    expect(isInProgress('completed')).toBe(false);
    expect(isInProgress('failed')).toBe(false);
  });
});
