import { afterAll, describe, expect, it } from 'vitest';
import { type LocalCloud, startLocalCloud } from '../src/cloud';

let starting: Promise<LocalCloud> | undefined;

afterAll(async () => {
  await (await starting?.catch(() => undefined))?.stop();
});

describe('npm start saying where the app is', () => {
  it('gives the URL as soon as the page is served, before the emulators are up', {
    timeout: 240_000,
  }, async () => {
    let started = false;
    let cloudStart: Promise<LocalCloud> | undefined;
    const said = new Promise<{ url: string; whileStarting: boolean; page: Promise<Response> }>((resolve) => {
      cloudStart = startLocalCloud({
        port: 0,
        dataDir: '',
        fresh: false,
        persist: false,
        web: 'static',
        quiet: true,
        onPageServed: (url) => resolve({ url, whileStarting: !started, page: fetch(`${url}/pricing`) }),
      });
    });
    if (!cloudStart) throw new Error('the cloud did not start');
    starting = cloudStart;
    starting.then(
      () => {
        started = true;
      },
      () => {},
    );

    const { url, whileStarting, page } = await said;
    const cloud = await starting;
    expect(url).toBe(cloud.url);
    expect(whileStarting).toBe(true);
    // Asked at that moment, the page is the app's, not the "starting" page.
    const answer = await page;
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('<div id="root"');
  });
});
