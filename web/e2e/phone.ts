import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

/** A phone (390×844): dialogs must fit it. */
export const PHONE = { width: 390, height: 844 };

/** The dialog lies inside the phone's screen, nothing in it runs off the side, and its action can be reached. */
export async function expectFitsPhone(dialog: Locator, action: Locator): Promise<void> {
  const box = await dialog.boundingBox();
  if (!box) throw new Error('the dialog has no box');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
  expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await action.scrollIntoViewIfNeeded();
  const actionBox = await action.boundingBox();
  if (!actionBox) throw new Error('the action has no box');
  expect(actionBox.y + actionBox.height).toBeLessThanOrEqual(PHONE.height);
}
