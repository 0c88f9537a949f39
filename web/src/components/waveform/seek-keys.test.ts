import { describe, expect, it } from 'vitest';
import { seekTargetForKey } from './seek-keys';

describe('seekTargetForKey', () => {
  it.each([
    ['ArrowRight', 60, 65],
    ['ArrowUp', 60, 65],
    ['ArrowLeft', 60, 55],
    ['ArrowDown', 60, 55],
    ['PageUp', 60, 90],
    ['PageDown', 60, 30],
    ['Home', 60, 0],
    ['End', 60, 200],
  ])('%s from %i s goes to %i s', (key, current, target) => {
    expect(seekTargetForKey(key, current, 200)).toBe(target);
  });

  it('stays within the track', () => {
    expect(seekTargetForKey('ArrowLeft', 2, 200)).toBe(0);
    expect(seekTargetForKey('ArrowRight', 198, 200)).toBe(200);
    expect(seekTargetForKey('PageUp', 190, 200)).toBe(200);
  });

  it('leaves other keys to the browser', () => {
    expect(seekTargetForKey('Tab', 60, 200)).toBeNull();
    expect(seekTargetForKey(' ', 60, 200)).toBeNull();
  });
});
