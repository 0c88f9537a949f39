import type { TestProject } from 'vitest/node';
import type { LocalCloud } from '../src/cloud';
import { startLocalCloudProcess } from '../src/cloud-process';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin serving `/api`: the local cloud, or the deployed stage named by TUNESMITH_API_URL. */
    apiUrl: string;
    /**
     * What a test needs to reach the data behind that API directly (TABLE_NAME,
     * AWS_REGION, DYNAMODB_ENDPOINT, credentials, ...): the local cloud's
     * environment, or the caller's own for a deployed stage.
     */
    cloudEnv: Record<string, string>;
    /** Whether the suite runs against the local cloud started here. */
    isLocal: boolean;
  }
}

/**
 * The integration suite's endpoint. With TUNESMITH_API_URL set, the same tests
 * run against a deployed stage (or LocalStack); otherwise a throwaway local
 * cloud (in-memory DynamoDB, API only) is started for the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const remote = process.env.TUNESMITH_API_URL;
  if (remote) {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && /^(TABLE_NAME|AWS_|DYNAMODB_|S3_|TRACKS_BUCKET$|UPLOADS_BUCKET$)/.test(name))
        env[name] = value;
    }
    project.provide('apiUrl', remote.replace(/\/$/, ''));
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
