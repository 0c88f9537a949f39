import { randomUUID } from 'node:crypto';
import { reportSchema } from '@tunesmith/shared/community';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import { dynamoProfileLookup, dynamoReportStore } from '../adapters/dynamo/report-store';
import type { User } from '../domain/accounts/user';
import { type ReportingDeps, reportProfile, reportTrack } from '../domain/community/reports';
import type { GroupHandlers } from '../http/group-handler';
import { readJson } from '../http/request';
import { json } from '../http/responses';

let deps: ReportingDeps | undefined;

function reporting(): ReportingDeps {
  if (!deps) {
    const { client, tableName } = dynamo();
    deps = {
      reports: dynamoReportStore(client, tableName),
      generations: dynamoGenerationStore(client, tableName),
      profiles: dynamoProfileLookup(client, tableName),
      limiter: dynamoRateLimiter(client, tableName),
      clock: { now: () => new Date() },
      newId: randomUUID,
    };
  }
  return deps;
}

/** The `community` group's handlers for reports of tracks and profiles (decisions 056, 061). */
export function reportHandlers(): GroupHandlers {
  return {
    reportTrack: async (event, ctx) =>
      json(
        201,
        await reportTrack(reporting(), ctx.user as User, ctx.params.id ?? '', () =>
          readJson(event, reportSchema),
        ),
      ),
    reportCreator: async (event, ctx) =>
      json(
        201,
        await reportProfile(reporting(), ctx.user as User, ctx.params.handle ?? '', () =>
          readJson(event, reportSchema),
        ),
      ),
  };
}
