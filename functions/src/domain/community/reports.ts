import type {
  AdminReport,
  AdminReportList,
  ReportAction,
  ReportRequest,
  ReportStatus,
} from '@tunesmith/shared/community';
import { generationMessages } from '@tunesmith/shared/generation-values';
import { REPORT_WINDOW_SECONDS, REPORTS_PER_WINDOW, reportMessages } from '@tunesmith/shared/reports';
import type { AdminUser } from '../accounts/admin';
import type { Clock, IdentityProvider, RateLimiter } from '../accounts/ports';
import type { UserRepository } from '../accounts/user';
import { audit } from '../admin/audit';
import type { AuditDeps } from '../admin/ports';
import { conflict, DomainError, notFound, validationError } from '../errors';
import { mayView } from '../generations/generation-service';
import type { GenerationStore } from '../generations/ports';
import { changeSharedTrack, type SharePageDeps, type ShareRefreshFailure } from '../tracks/share-page';

/**
 * Reports of tracks and public profiles, and what an administrator does with them (decision 061):
 * hide the subject, dismiss the report, or suspend its owner; and undo a hide or a suspension.
 */

export type ReportSubjectKind = AdminReport['subject']['kind'];

/** A report as it is kept. */
export type StoredReport = AdminReport;

/** A public profile as reports need it (the profile record is the creators' part, decision 059). */
export interface ReportedProfile {
  userId: string;
  handle: string;
  hidden: boolean;
}

/** Public profiles: found by handle, and hidden or shown again by an administrator. */
export interface ProfileLookup {
  byHandle(handle: string): Promise<ReportedProfile | undefined>;
  /** Sets `hidden` on the user's profile; false when they have none. */
  setHidden(userId: string, hidden: boolean): Promise<boolean>;
}

export interface ReportStore {
  /**
   * Keeps a new open report with its claim (one open report per reporter per subject), in one write.
   * False when the reporter already has an open report of the subject: nothing is written.
   */
  open(report: StoredReport): Promise<boolean>;
  get(id: string): Promise<StoredReport | undefined>;
  /** The subject's open reports. */
  openOfSubject(kind: ReportSubjectKind, subjectId: string): Promise<StoredReport[]>;
  /** The open reports about a user's content. */
  openAboutOwner(ownerId: string): Promise<StoredReport[]>;
  /** Every report a user sent. */
  sentBy(reporterId: string): Promise<StoredReport[]>;
  /**
   * Records what was done, if the report is still in status `from` (and drops its claim when it was
   * open); false when it was not (another administrator was first), and nothing is written.
   */
  resolve(
    report: StoredReport,
    from: ReportStatus,
    to: Pick<StoredReport, 'status' | 'resolvedAt' | 'resolvedBy'>,
  ): Promise<boolean>;
  /** The open reports, oldest first, and the latest resolved ones, newest first. */
  list(limits: {
    open: number;
    resolved: number;
  }): Promise<{ open: StoredReport[]; resolved: StoredReport[] }>;
  /** Deletes a report and its claim; one already gone is fine. */
  remove(report: StoredReport): Promise<void>;
}

export interface ReportingDeps {
  reports: ReportStore;
  generations: Pick<GenerationStore, 'get'>;
  profiles: Pick<ProfileLookup, 'byHandle'>;
  limiter: Pick<RateLimiter, 'hit'>;
  clock: Clock;
  newId: () => string;
}

export interface ModerationDeps extends AuditDeps {
  reports: ReportStore;
  generations: Pick<GenerationStore, 'get' | 'update'>;
  profiles: ProfileLookup;
  users: Pick<UserRepository, 'get' | 'update'>;
  identity: Pick<IdentityProvider, 'signOutEverywhere'>;
  sharePages: SharePageDeps;
  onShareRefreshFailure?: ShareRefreshFailure;
}

/** How many of each the Reports page lists: every open report up to this, and the latest resolved. */
export const REPORT_LIST_LIMITS = { open: 200, resolved: 50 } as const;

const LABEL_MAX = 100;

const ownContent = () => validationError(reportMessages.ownContent);

async function file(
  deps: ReportingDeps,
  reporterId: string,
  subject: StoredReport['subject'],
  ownerId: string,
  read: () => ReportRequest,
): Promise<void> {
  const input = read();
  if (!(await deps.limiter.hit(`report:${reporterId}`, REPORTS_PER_WINDOW, REPORT_WINDOW_SECONDS)))
    throw new DomainError('rate-limited', reportMessages.tooMany);
  const details = input.details?.trim();
  // A repeat of an open report is accepted and not kept twice.
  await deps.reports.open({
    id: deps.newId(),
    subject,
    ownerId,
    reporterId,
    reason: input.reason,
    details: details ? details : null,
    status: 'open',
    createdAt: deps.clock.now().toISOString(),
    resolvedAt: null,
    resolvedBy: null,
  });
}

/**
 * A signed-in user reports a track they may see (anything else is not found, whatever the body);
 * never their own. `input` reads the report once the track is known to be reportable.
 */
export async function reportTrack(
  deps: ReportingDeps,
  reporter: { id: string },
  trackId: string,
  input: () => ReportRequest,
): Promise<{ reported: true }> {
  const track = await deps.generations.get(trackId);
  if (!track || !mayView(track, reporter)) throw notFound(generationMessages.trackNotFound);
  if (track.userId === reporter.id) throw ownContent();
  const label = (track.title?.trim() || 'Untitled Track').slice(0, LABEL_MAX);
  await file(deps, reporter.id, { kind: 'track', id: track.id, label }, track.userId, input);
  return { reported: true };
}

/** A signed-in user reports a public profile (a hidden or unknown one is not found); never their own. */
export async function reportProfile(
  deps: ReportingDeps,
  reporter: { id: string },
  handle: string,
  input: () => ReportRequest,
): Promise<{ reported: true }> {
  const profile = await deps.profiles.byHandle(handle);
  if (!profile || profile.hidden) throw notFound(reportMessages.profileNotFound);
  if (profile.userId === reporter.id) throw ownContent();
  await file(
    deps,
    reporter.id,
    { kind: 'profile', id: profile.userId, label: profile.handle },
    profile.userId,
    input,
  );
  return { reported: true };
}

/** The Reports page: open reports first (oldest first, the longest waiting on top), then the latest resolved. */
export async function listReports(deps: Pick<ModerationDeps, 'reports'>): Promise<AdminReportList> {
  const { open, resolved } = await deps.reports.list(REPORT_LIST_LIMITS);
  return { reports: [...open, ...resolved] };
}

const statusOf: Record<Exclude<ReportAction, 'restore'>, ReportStatus> = {
  hide: 'hidden',
  dismiss: 'dismissed',
  suspend: 'suspended',
};

/** Hides or shows the subject again; one that is gone meanwhile is fine. */
async function setSubjectHidden(
  deps: ModerationDeps,
  subject: StoredReport['subject'],
  hidden: boolean,
): Promise<void> {
  if (subject.kind === 'profile') {
    await deps.profiles.setHidden(subject.id, hidden);
    return;
  }
  const stamp = deps.clock.now().toISOString();
  // Hiding takes the share page down first (if that fails, nothing is hidden and the admin may try
  // again), as making a track private does; showing it again writes it back.
  await changeSharedTrack(
    deps.sharePages,
    subject.id,
    {
      hides: hidden,
      ...(deps.onShareRefreshFailure ? { onRefreshFailure: deps.onShareRefreshFailure } : {}),
    },
    () =>
      deps.generations.update(subject.id, (g) =>
        !!g.hidden === hidden ? undefined : { ...g, hidden, updatedAt: stamp },
      ),
  );
}

/** Suspends an account or lifts its suspension; a suspension ends every session at once. */
async function setSuspended(deps: ModerationDeps, userId: string, suspended: boolean): Promise<void> {
  const user = await deps.users.get(userId);
  if (!user) return;
  const now = deps.clock.now();
  await deps.users.update(userId, {
    suspended,
    // Token issue times are whole seconds: the next one refuses every token issued so far.
    ...(suspended ? { sessionsValidAfter: Math.floor(now.getTime() / 1000) + 1 } : {}),
    updatedAt: now.toISOString(),
  });
  if (suspended) await deps.identity.signOutEverywhere(userId);
  await deps.profiles.setHidden(userId, suspended);
}

const subjectName = (r: StoredReport) =>
  r.subject.kind === 'track' ? `track "${r.subject.label}"` : `profile @${r.subject.label}`;

/**
 * An administrator acts on a report: `hide` hides its subject, `dismiss` closes it, `suspend` hides the
 * subject and suspends its owner; the subject's other open reports are resolved the same way. `restore`
 * undoes what a hide or a suspension did (the subject is shown again, the suspension lifted). Audited.
 */
export async function resolveReport(
  deps: ModerationDeps,
  admin: Pick<AdminUser, 'username'>,
  reportId: string,
  action: ReportAction,
): Promise<AdminReport> {
  const report = await deps.reports.get(reportId);
  if (!report) throw notFound(reportMessages.reportNotFound);
  const resolution = { resolvedAt: deps.clock.now().toISOString(), resolvedBy: admin.username };

  if (action === 'restore') {
    if (report.status !== 'hidden' && report.status !== 'suspended')
      throw conflict(reportMessages.notRestorable);
    if (report.status === 'suspended') await setSuspended(deps, report.ownerId, false);
    await setSubjectHidden(deps, report.subject, false);
    const restored = { ...report, status: 'restored' as const, ...resolution };
    if (!(await deps.reports.resolve(report, report.status, restored)))
      throw conflict(reportMessages.alreadyResolved);
    await audit(
      deps,
      admin,
      'report.restore',
      report.id,
      report.status === 'suspended'
        ? `Lifted the suspension of the owner of ${subjectName(report)} and showed it again`
        : `Showed ${subjectName(report)} again`,
    );
    return restored;
  }

  if (report.status !== 'open') throw conflict(reportMessages.alreadyResolved);
  if (action !== 'dismiss') await setSubjectHidden(deps, report.subject, true);
  if (action === 'suspend') await setSuspended(deps, report.ownerId, true);
  const status = statusOf[action];
  const others = (await deps.reports.openOfSubject(report.subject.kind, report.subject.id)).filter(
    (r) => r.id !== report.id,
  );
  const resolved = { ...report, status, ...resolution };
  if (!(await deps.reports.resolve(report, 'open', resolved))) throw conflict(reportMessages.alreadyResolved);
  // Another administrator may be resolving one of these at once: theirs stands.
  for (const other of others) await deps.reports.resolve(other, 'open', { status, ...resolution });
  const verb = { hide: 'Hid', dismiss: 'Dismissed the report of', suspend: 'Suspended the owner of and hid' }[
    action
  ];
  await audit(
    deps,
    admin,
    `report.${action}`,
    report.id,
    `${verb} ${subjectName(report)} (${report.reason}${others.length ? `, with ${others.length} other report${others.length === 1 ? '' : 's'}` : ''})`,
  );
  return resolved;
}

/**
 * The account deletion's step for reports (decision 061): the reports the user sent are removed, and
 * the open reports about their content are closed. Safe to run again.
 */
export async function removeUserReports(
  deps: Pick<ModerationDeps, 'reports' | 'clock'>,
  userId: string,
): Promise<void> {
  for (const report of await deps.reports.sentBy(userId)) await deps.reports.remove(report);
  const resolvedAt = deps.clock.now().toISOString();
  for (const report of await deps.reports.openAboutOwner(userId))
    await deps.reports.resolve(report, 'open', { status: 'closed', resolvedAt, resolvedBy: null });
}
