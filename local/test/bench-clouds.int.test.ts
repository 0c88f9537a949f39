import { describe, expect, it } from 'vitest';
import { startBareServer, startBenchCloud } from '../../scripts/bench-cloud';

// `npm run bench` starts one local cloud for its API section and another for
// its admin section, from one process. Each must serve its own API: the
// handlers of a process serve the first cloud that used them, so when both
// ran in the bench's process the second answered the admin's sign-in with 500
// and the report stopped there.

describe("the bench's local clouds", () => {
  it('each serve their own API, one after the other, from one process', { timeout: 240_000 }, async () => {
    for (const section of ['api', 'admin']) {
      const cloud = await startBenchCloud();
      try {
        const login = await fetch(`${cloud.url}/api/admin/login`, {
          method: 'POST',
          headers: { origin: cloud.url, 'content-type': 'application/json' },
          body: JSON.stringify(cloud.admin),
        });

        expect({ section, status: login.status }).toEqual({ section, status: 200 });
      } finally {
        await cloud.stop();
      }
    }
  });

  it('have a bare baseline server that reads the same plans from the same table', {
    timeout: 240_000,
  }, async () => {
    const cloud = await startBenchCloud();
    try {
      const bare = await startBareServer(cloud);
      try {
        const api = (await (await fetch(`${cloud.url}/api/plans`)).json()) as { id: string }[];
        const baseline = (await (await fetch(`${bare.url}/api/plans`)).json()) as { id: string }[];

        expect(baseline.map((plan) => plan.id).sort()).toEqual(api.map((plan) => plan.id).sort());
        expect(api.length).toBeGreaterThan(0);
      } finally {
        await bare.stop();
      }
    } finally {
      await cloud.stop();
    }
  });
});
