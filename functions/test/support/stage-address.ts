/**
 * Against the local cloud every test browser connects from a loopback address
 * of its own; against a stage they all reach CloudFront from this machine's
 * one address, and the suite signs up and signs in far more often than the
 * per-address limits allow a person (20 sign-ups an hour, 50 password checks
 * in 15 minutes). So a stage run learns that address once and, before each
 * call that counts it, clears this address's counters of the current windows,
 * with the table access it has anyway. Per-account limits stay as they are;
 * the tests of the per-address limits run locally only.
 */
import { DeleteCommand, type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../src/data/keys';
import { rateLimits } from '../../src/domain/accounts/account-service';
import { passwordCheckLimits } from '../../src/domain/accounts/session-rules';

export type DocumentSender = Pick<DynamoDBDocumentClient, 'send'>;

/** The per-address counters the API keeps, each with its window (functions/src/domain/accounts). */
const addressCounters = [
  ...(['register', 'reset', 'resend'] as const).map((action) => ({
    action,
    windowSeconds: rateLimits[action].windowSeconds,
  })),
  ...['login', 'password-check', 'admin-login', 'admin-code', 'admin-password-check'].map((action) => ({
    action,
    windowSeconds: passwordCheckLimits.windowSeconds,
  })),
];

/** Calls that count the caller's address (method and path), before which a stage run clears its counters. */
const countingCalls = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/resend-verification',
  'POST /api/auth/request-password-reset',
  'PUT /api/user/email',
  'PUT /api/user/password',
  'POST /api/admin/login',
  'POST /api/admin/login/code',
  'PUT /api/admin/change-password',
]);

export const countsAddress = (method: string, path: string): boolean =>
  countingCalls.has(`${method.toUpperCase()} ${path.split('?')[0]}`);

const windowOf = (nowMs: number, windowSeconds: number) => {
  const seconds = Math.floor(nowMs / 1000);
  return seconds - (seconds % windowSeconds);
};

/** The table keys of `address`'s counters in the windows current at `nowMs`. */
export function addressCounterKeys(address: string, nowMs: number): { pk: string; sk: string }[] {
  return addressCounters.map(({ action, windowSeconds }) =>
    keys.rateCounter(`${action}:address:${address}`, windowOf(nowMs, windowSeconds)),
  );
}

/** Clears `address`'s per-address counters of the current windows. */
export async function liftAddressLimits(
  documents: DocumentSender,
  tableName: string,
  address: string,
  nowMs = Date.now(),
): Promise<void> {
  await Promise.all(
    addressCounterKeys(address, nowMs).map((Key) =>
      documents.send(new DeleteCommand({ TableName: tableName, Key })),
    ),
  );
}

/** Every address's password-reset counter of the current window, by address. */
async function resetCounters(documents: DocumentSender, tableName: string, window: number) {
  const prefix = keys.rateCounter('reset:address:', 0).pk.replace(/#0$/, '');
  const counts = new Map<string, number>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': prefix },
        ProjectionExpression: 'pk, #count',
        ExpressionAttributeNames: { '#count': 'count' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const pk = String(item.pk);
      const suffix = `#${window}`;
      if (pk.endsWith(suffix)) counts.set(pk.slice(prefix.length, -suffix.length), Number(item.count ?? 0));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return counts;
}

/**
 * This machine's address as the stage sees it: the one address whose
 * password-reset counter grows by exactly the `probes` requests `probe` makes
 * (requests for an address with no account, so no mail is sent).
 */
export async function learnAddress(
  documents: DocumentSender,
  tableName: string,
  probe: () => Promise<void>,
  { probes = 3, now = Date.now }: { probes?: number; now?: () => number } = {},
): Promise<string> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const window = windowOf(now(), rateLimits.reset.windowSeconds);
    const before = await resetCounters(documents, tableName, window);
    for (let i = 0; i < probes; i++) await probe();
    if (windowOf(now(), rateLimits.reset.windowSeconds) !== window) continue;
    const after = await resetCounters(documents, tableName, window);
    const grown = [...after].filter(([address, count]) => count - (before.get(address) ?? 0) === probes);
    if (grown.length === 1) return (grown[0] as [string, number])[0];
  }
  throw new Error(
    "Could not tell this machine's address as the stage sees it (another client may be resetting passwords on it): run again",
  );
}
