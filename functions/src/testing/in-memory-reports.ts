import type { ProfileLookup, ReportedProfile, ReportStore, StoredReport } from '../domain/community/reports';

/** Reports in maps, with the table's contracts: one open report per reporter per subject, resolve only from `from`. */
export function inMemoryReports(): ReportStore & { all: Map<string, StoredReport> } {
  const all = new Map<string, StoredReport>();
  const claims = new Map<string, string>();
  const claimOf = (r: StoredReport) => `${r.subject.kind}#${r.subject.id}#${r.reporterId}`;
  const open = () => [...all.values()].filter((r) => r.status === 'open');
  return {
    all,
    async open(report) {
      if (claims.has(claimOf(report))) return false;
      claims.set(claimOf(report), report.id);
      all.set(report.id, structuredClone(report));
      return true;
    },
    async get(id) {
      const r = all.get(id);
      return r && structuredClone(r);
    },
    async openOfSubject(kind, subjectId) {
      return open().filter((r) => r.subject.kind === kind && r.subject.id === subjectId);
    },
    async openAboutOwner(ownerId) {
      return open().filter((r) => r.ownerId === ownerId);
    },
    async sentBy(reporterId) {
      return [...all.values()].filter((r) => r.reporterId === reporterId);
    },
    async resolve(report, from, to) {
      const current = all.get(report.id);
      if (!current || current.status !== from) return false;
      all.set(report.id, { ...current, ...to });
      if (from === 'open') claims.delete(claimOf(current));
      return true;
    },
    async list(limits) {
      const values = [...all.values()];
      return {
        open: values
          .filter((r) => r.status === 'open')
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
          .slice(0, limits.open),
        resolved: values
          .filter((r) => r.status !== 'open')
          .sort((a, b) => (b.resolvedAt ?? '').localeCompare(a.resolvedAt ?? ''))
          .slice(0, limits.resolved),
      };
    },
    async remove(report) {
      all.delete(report.id);
      if (claims.get(claimOf(report)) === report.id) claims.delete(claimOf(report));
    },
  };
}

/** Public profiles by user id; handles are found case-insensitively. */
export function inMemoryProfiles(initial: ReportedProfile[] = []): ProfileLookup & {
  all: Map<string, ReportedProfile>;
} {
  const all = new Map(initial.map((p) => [p.userId, { ...p }]));
  return {
    all,
    async byHandle(handle) {
      const found = [...all.values()].find((p) => p.handle.toLowerCase() === handle.toLowerCase());
      return found && { ...found };
    },
    async setHidden(userId, hidden) {
      const profile = all.get(userId);
      if (!profile) return false;
      all.set(userId, { ...profile, hidden });
      return true;
    },
  };
}
