import { describe, expect, it } from 'vitest';
import { editSummary } from './track-edit';

describe('editSummary', () => {
  it('writes a repainted section as it was chosen, to the tenth of a second', () => {
    expect(editSummary({ kind: 'repaint', start: 2, end: 6.5, variance: 0.5 })).toBe('Repainted 0:02–0:06.5');
    expect(editSummary({ kind: 'repaint', start: 61.2, end: 75, variance: 0.5 })).toBe(
      'Repainted 1:01.2–1:15',
    );
  });

  it('says how far an extension went, and names a variation', () => {
    expect(editSummary({ kind: 'extend', seconds: 35, at: 'end' })).toBe('Extended by 35 s at the end');
    expect(editSummary({ kind: 'variation' })).toBe('Variation');
  });
});
