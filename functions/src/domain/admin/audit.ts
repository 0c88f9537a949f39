import type { AuditEntry } from '@tunesmith/shared/admin';
import type { AdminUser } from '../accounts/admin';
import type { AuditDeps } from './ports';

export { AUDIT_RETENTION_DAYS } from '@tunesmith/shared/data-retention';

/**
 * Records an administrator's change: who, what, to which record, when. The
 * summary names what changed, never a secret's value.
 */
export async function audit(
  deps: AuditDeps,
  admin: Pick<AdminUser, 'username'>,
  action: string,
  target: string,
  summary: string,
): Promise<void> {
  const entry: AuditEntry = {
    id: deps.newId(),
    at: deps.clock.now().toISOString(),
    actor: admin.username,
    action,
    target,
    summary,
  };
  await deps.audit.record(entry);
}
