import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';

/**
 * The DynamoDB actions the code uses, and no more (no Scan, no BatchWriteItem,
 * no table management): items by key, queries on the table and its indexes,
 * and writes (transactions are authorized through the same Put, Update and
 * Delete actions). BatchGetItem only where a group reads pages of items by key.
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
