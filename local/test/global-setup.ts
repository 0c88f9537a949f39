import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { fetch } from 'undici';
import type { TestProject } from 'vitest/node';
import { learnAddress } from '../../functions/test/support/stage-address';
import { stageEnvFrom } from '../../functions/test/support/target';
import type { LocalCloud } from '../src/cloud';
import { startLocalCloudProcess } from '../src/cloud-process';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin serving `/api`: the local cloud, or the deployed stage named by TUNESMITH_API_URL. */
    apiUrl: string;
    /**
     * What a test needs to reach the data behind that API directly (TABLE_NAME,
     * AWS_REGION, DYNAMODB_ENDPOINT, credentials, ...): the local cloud's
     * environment, or for a deployed stage the names from its outputs
     * (functions/test/support/target.ts, no endpoints and no keys).
     */
    cloudEnv: Record<string, string>;
    /** Whether the suite runs against the local cloud started here. */
    isLocal: boolean;
  }
}

/**
 * The integration suite's endpoint. With TUNESMITH_API_URL set, the same tests
 * run against a deployed stage (`npm run test:stage -- --stage dev` sets it and
 * the stack's outputs) and no local cloud is started; otherwise a throwaway
 * local cloud (in-memory DynamoDB, API only) is started for the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const remote = process.env.TUNESMITH_API_URL;
  if (remote) {
    const apiUrl = remote.replace(/\/$/, '');
    const { env, missing } = stageEnvFrom(process.env);
    if (missing.length) {
      throw new Error(
        `TUNESMITH_API_URL is set, but ${missing.join(', ')} from the stack's outputs is not: run npm run test:stage -- --stage <name> (docs/testing.md: the suite against a deployed stage)`,
      );
    }
    // Every test browser is this machine's one address there; the support clears its counters (stage-address.ts).
    const table = DynamoDBDocumentClient.from(new DynamoDBClient({ region: env.AWS_REGION }));
    try {
      env.TEST_CLIENT_ADDRESS = await learnAddress(table, env.TABLE_NAME as string, async () => {
        const probe = await fetch(`${apiUrl}/api/auth/request-password-reset`, {
          method: 'POST',
          headers: { origin: apiUrl, 'content-type': 'application/json' },
          body: JSON.stringify({ email: `address-probe-${randomUUID()}@${env.MAIL_SINK_DOMAIN}` }),
        });
        await probe.arrayBuffer();
      });
    } finally {
      table.destroy();
    }
    project.provide('apiUrl', apiUrl);
    project.provide('cloudEnv', env);
    project.provide('isLocal', false);
    return async () => {};
  }

  // In a process of its own: other projects' global setups (e2e) run a cloud in
  // this process, and the handlers read process.env.
  const cloud: LocalCloud = await startLocalCloudProcess({
    port: 0,
    dataDir: '',
    fresh: false,
    persist: false,
    web: 'none',
    quiet: true,
  });
  project.provide('apiUrl', cloud.url);
  project.provide('cloudEnv', { ...cloud.env });
  project.provide('isLocal', true);
  return () => cloud.stop();
}
