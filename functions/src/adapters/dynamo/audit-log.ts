import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { auditEntrySchema } from '@tunesmith/shared/audit';
import { keys, tableDesign } from '../../data/keys';
import { AUDIT_RETENTION_DAYS } from '../../domain/admin/audit';
import type { AuditLog } from '../../domain/admin/ports';

/** Admin records: newest first in one partition, expiring after the retention period. */
export function dynamoAuditLog(client: DynamoDBDocumentClient, tableName: string): AuditLog {
  return {
    async record(entry) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.audit(entry.at, entry.id),
            entity: 'audit',
            ...entry,
            [tableDesign.ttlAttribute]:
              Math.floor(Date.parse(entry.at) / 1000) + AUDIT_RETENTION_DAYS * 86_400,
          },
        }),
      );
    },
    async recent(limit) {
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.auditPartition },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (out.Items ?? []).flatMap((item) => {
        const parsed = auditEntrySchema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      });
    },
  };
}
