/**
 * The admin activity log's entries: apart from the admin area's other
 * schemas, so the dashboard (and billing, which writes entries) builds only
 * these (decision 042).
 */
import * as z from 'zod/mini';
import './schema-messages';

/** How many entries the dashboard's latest activity shows. */
export const ADMIN_RECENT_ACTIVITY = 10;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The administrator's username. */
  actor: z.string(),
  /** What was done, e.g. `user.update`, `plan.create`, `setting.update`. */
  action: z.string(),
  /** What it was done to: a user, plan or track id, or a setting key. */
  target: z.string(),
  /** One line for the activity list; never a secret's value. */
  summary: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
