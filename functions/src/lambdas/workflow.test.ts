import { describe, expect, it } from 'vitest';
import { failedAndRefunded } from './workflow';

describe('the workflow metrics of a failed track', () => {
  it('count failed and refunded when the track was marked failed and its unit given back', () => {
    expect(failedAndRefunded({ refunded: true })).toEqual(['GenerationsFailed', 'GenerationsRefunded']);
  });

  it('count nothing when the track was already final, so a retried step does not count twice', () => {
    expect(failedAndRefunded({ refunded: false })).toEqual([]);
    expect(failedAndRefunded(undefined)).toEqual([]);
  });
});
