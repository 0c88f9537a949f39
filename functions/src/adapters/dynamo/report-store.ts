import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { adminReportSchema } from '@tunesmith/shared/community';
import { creatorKeys, reportKeys } from '../../data/community-keys';
import { tableDesign } from '../../data/keys';
import type { ProfileLookup, ReportStore, StoredReport } from '../../domain/community/reports';
import { isConditionFailure } from './conditions';
import { transactWrite } from './transact';

const reportItem = (r: StoredReport) => ({
  ...reportKeys.report(r.id),
  ...reportKeys.byReporter(r.reporterId, r.createdAt, r.id),
  ...(r.status === 'open'
    ? reportKeys.open(r.createdAt, r.id)
    : reportKeys.resolved(r.resolvedAt ?? r.createdAt, r.id)),
  entity: 'report',
  ...r,
});

const parse = (item: Record<string, unknown>) => adminReportSchema.parse(item);

/** Reports in the single table (community-keys.ts): a report item, and a claim while it is open. */
export function dynamoReportStore(client: DynamoDBDocumentClient, tableName: string): ReportStore {
  const query = async (input: Omit<QueryCommandInput, 'TableName'>, max: number) => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          ...input,
          Limit: max - items.length,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start && items.length < max);
    return items;
  };
  const get = async (id: string) => {
    const out = await client.send(
      new GetCommand({ TableName: tableName, Key: reportKeys.report(id), ConsistentRead: true }),
    );
    return out.Item ? parse(out.Item) : undefined;
  };
  /** Reports named by claims (their `reportId`), read one by one: a subject or owner has few open. */
  const fromClaims = async (claims: Record<string, unknown>[]) => {
    const found = await Promise.all(claims.map((c) => get(String(c.reportId))));
    return found.filter((r): r is StoredReport => r !== undefined && r.status === 'open');
  };
  const { byOwner, byKind } = tableDesign.indexes;
  return {
    async open(report) {
      try {
        await transactWrite(client, [
          {
            Put: {
              TableName: tableName,
              Item: {
                ...reportKeys.claim(report.subject.kind, report.subject.id, report.reporterId),
                ...reportKeys.claimOfOwner(report.ownerId, report.id),
                entity: 'report-claim',
                reportId: report.id,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: reportItem(report),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]);
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    get,
    async openOfSubject(kind, subjectId) {
      const claims = await query(
        {
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': reportKeys.claimPartition(kind, subjectId) },
          ConsistentRead: true,
        },
        1000,
      );
      return fromClaims(claims);
    },
    async openAboutOwner(ownerId) {
      const claims = await query(
        {
          IndexName: byOwner.indexName,
          KeyConditionExpression: `${byOwner.partitionKey} = :pk`,
          ExpressionAttributeValues: { ':pk': reportKeys.ownerPartition(ownerId) },
        },
        10_000,
      );
      return fromClaims(claims);
    },
    async sentBy(reporterId) {
      const items = await query(
        {
          IndexName: byOwner.indexName,
          KeyConditionExpression: `${byOwner.partitionKey} = :pk`,
          ExpressionAttributeValues: { ':pk': reportKeys.reporterPartition(reporterId) },
        },
        10_000,
      );
      return items.map(parse);
    },
    async resolve(report, from, to) {
      const resolvedAt = to.resolvedAt ?? report.createdAt;
      const index = reportKeys.resolved(resolvedAt, report.id);
      try {
        await transactWrite(client, [
          {
            Update: {
              TableName: tableName,
              Key: reportKeys.report(report.id),
              UpdateExpression:
                'SET #status = :status, resolvedAt = :at, resolvedBy = :by, gsi2pk = :gpk, gsi2sk = :gsk',
              ConditionExpression: '#status = :from',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':status': to.status,
                ':at': to.resolvedAt,
                ':by': to.resolvedBy,
                ':gpk': index.gsi2pk,
                ':gsk': index.gsi2sk,
                ':from': from,
              },
            },
          },
          ...(from === 'open'
            ? [
                {
                  Delete: {
                    TableName: tableName,
                    Key: reportKeys.claim(report.subject.kind, report.subject.id, report.reporterId),
                  },
                },
              ]
            : []),
        ]);
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async list(limits) {
      const [open, resolved] = await Promise.all([
        query(
          {
            IndexName: byKind.indexName,
            KeyConditionExpression: `${byKind.partitionKey} = :pk`,
            ExpressionAttributeValues: { ':pk': reportKeys.openPartition },
            ScanIndexForward: true,
          },
          limits.open,
        ),
        query(
          {
            IndexName: byKind.indexName,
            KeyConditionExpression: `${byKind.partitionKey} = :pk`,
            ExpressionAttributeValues: { ':pk': reportKeys.resolvedPartition },
            ScanIndexForward: false,
          },
          limits.resolved,
        ),
      ]);
      return { open: open.map(parse), resolved: resolved.map(parse) };
    },
    async remove(report) {
      await transactWrite(client, [
        { Delete: { TableName: tableName, Key: reportKeys.report(report.id) } },
        // Only this report's claim: a newer open report of the same reporter holds its own id.
        {
          Delete: {
            TableName: tableName,
            Key: reportKeys.claim(report.subject.kind, report.subject.id, report.reporterId),
            ConditionExpression: 'attribute_not_exists(pk) OR reportId = :id',
            ExpressionAttributeValues: { ':id': report.id },
          },
        },
      ]).catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
        return client.send(new DeleteCommand({ TableName: tableName, Key: reportKeys.report(report.id) }));
      });
    },
  };
}

/** Public profiles as reports need them: the creators' records (decision 059), read and hidden. */
const profileKeys = creatorKeys;

export function dynamoProfileLookup(client: DynamoDBDocumentClient, tableName: string): ProfileLookup {
  return {
    async byHandle(handle) {
      const claim = await client.send(
        new GetCommand({ TableName: tableName, Key: profileKeys.handle(handle) }),
      );
      const userId = claim.Item?.userId;
      if (typeof userId !== 'string') return undefined;
      const out = await client.send(
        new GetCommand({ TableName: tableName, Key: profileKeys.profile(userId) }),
      );
      if (!out.Item || typeof out.Item.handle !== 'string') return undefined;
      return { userId, handle: out.Item.handle, hidden: out.Item.hidden === true };
    },
    async setHidden(userId, hidden) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: profileKeys.profile(userId),
            UpdateExpression: 'SET #hidden = :hidden',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#hidden': 'hidden' },
            ExpressionAttributeValues: { ':hidden': hidden },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}
