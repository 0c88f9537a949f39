/**
 * Whether a write failed on its condition: a conditional put, update or
 * delete (`ConditionalCheckFailedException`) or a transaction one of whose
 * conditions did not hold.
 */
export const isConditionFailure = (error: unknown): boolean => {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] } | undefined;
  return (
    e?.name === 'ConditionalCheckFailedException' ||
    (e?.name === 'TransactionCanceledException' &&
      (e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed'))
  );
};

/** Whether a transaction lost to another one writing the same item at the same time. */
export const isTransactionConflict = (error: unknown): boolean => {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] } | undefined;
  return (
    e?.name === 'TransactionConflictException' ||
    (e?.name === 'TransactionCanceledException' &&
      (e.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict') &&
      !(e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed'))
  );
};
