/**
 * How long deleted data can outlive its deletion, as the privacy policy
 * states it. The table's point-in-time recovery keeps this many days of
 * history (infra/lib/data.ts sets it from here): an item deleted today can be
 * restored, by an operator restoring the table to a new one, until then.
 * Track audio, uploads and export zips keep no copies once deleted
 * (decision 034).
 */
export const TABLE_RECOVERY_DAYS = 35;

/**
 * How long the admin audit trail keeps a record (DynamoDB's TTL removes it
 * after). A deleted account's record names its email address (decision 022),
 * which the privacy policy says.
 */
export const AUDIT_RETENTION_DAYS = 400;
