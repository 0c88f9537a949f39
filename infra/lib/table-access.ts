import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';

/**
 * The DynamoDB actions the code uses, and no more (no Scan, no BatchWriteItem,
 * no table management): items by key, queries on the table and its indexes,
 * and writes (transactions are authorized through the same Put, Update and
 * Delete actions). BatchGetItem only where a group reads items by key in batches: every
 * group that recognises a session (decision 041) and the admin user list.
 */
export const tableActions = {
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  batchRead: ['dynamodb:BatchGetItem'],
  write: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
} as const;

export type TableAccess = 'read' | 'readWrite';

/** Grants `access` on the table and its indexes, plus BatchGetItem when `batchRead`. */
export function grantTable(
  table: ITable,
  grantee: IGrantable,
  access: TableAccess,
  options: { batchRead?: boolean } = {},
): Grant {
  return Grant.addToPrincipal({
    grantee,
    actions: [
      ...tableActions.read,
      ...(options.batchRead ? tableActions.batchRead : []),
      ...(access === 'readWrite' ? tableActions.write : []),
    ],
    resourceArns: [table.tableArn, `${table.tableArn}/index/*`],
  });
}
