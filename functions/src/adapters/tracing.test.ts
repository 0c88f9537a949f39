import { describe, expect, it } from 'vitest';
import { tracing } from './tracing';

type Client = Parameters<ReturnType<typeof tracing>['traced']>[0];
const client = (name: string) => ({ name, middlewareStack: {} }) as unknown as Client;

describe('tracing', () => {
  it('captures clients made before it started once it starts, and later ones as they are made', async () => {
    const captured: Client[] = [];
    let loads = 0;
    const t = tracing(true, async () => {
      loads++;
      return {
        captureAWSv3Client: <T>(c: T) => {
          captured.push(c as Client);
          return c;
        },
      };
    });
    const early = client('dynamodb');
    expect(t.traced(early)).toBe(early);
    expect(captured).toEqual([]);
    await Promise.all([t.start(), t.start()]);
    expect(captured).toEqual([early]);
    const late = t.traced(client('s3'));
    expect(captured).toEqual([early, late]);
    await t.start();
    expect(loads).toBe(1);
  });

  it('loads nothing and captures nothing where tracing is off', async () => {
    let loads = 0;
    const t = tracing(false, async () => {
      loads++;
      return { captureAWSv3Client: <T>(c: T) => c };
    });
    const c = client('dynamodb');
    expect(t.traced(c)).toBe(c);
    await t.start();
    expect(loads).toBe(0);
  });
});
