import type { AdminReport, ReportAction } from '@tunesmith/shared/community';
import { reportReasonLabels } from '@tunesmith/shared/reports';
import { useId, useState } from 'react';
import { AdminPage, EmptyState, LoadFailed } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { serverMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useAdminReports, useResolveReport } from '../api';

const statusText: Record<AdminReport['status'], string> = {
  open: 'Open',
  hidden: 'Hidden',
  dismissed: 'Dismissed',
  suspended: 'Owner suspended',
  restored: 'Restored',
  closed: 'Closed: account deleted',
};

const statusClasses: Record<AdminReport['status'], string> = {
  open: 'bg-amber-500/20 text-amber-100',
  hidden: 'bg-red-500/20 text-red-100',
  dismissed: 'bg-white/10 text-zinc-200',
  suspended: 'bg-red-500/20 text-red-100',
  restored: 'bg-emerald-500/20 text-emerald-100',
  closed: 'bg-white/10 text-zinc-200',
};

/** The subject as the page names it: a track by its title, a profile by its handle. */
const subjectName = (r: AdminReport) =>
  r.subject.kind === 'track' ? `Track "${r.subject.label}"` : `Profile @${r.subject.label}`;

/** What was done, in the words of the toast that confirms it. */
const doneText = (r: AdminReport, action: ReportAction) =>
  ({
    hide: `${subjectName(r)} is hidden.`,
    dismiss: 'The report was dismissed.',
    suspend: `The owner of ${subjectName(r).toLowerCase()} is suspended.`,
    restore:
      r.status === 'suspended'
        ? 'The suspension was lifted and the content is shown again.'
        : `${subjectName(r)} is shown again.`,
  })[action];

function ReportCard({
  report,
  pending,
  onAction,
}: {
  report: AdminReport;
  pending: boolean;
  onAction: (action: ReportAction) => void;
}) {
  const headingId = useId();
  const kind = report.subject.kind === 'track' ? 'Track' : 'Profile';
  return (
    <Card className="grid gap-3 p-5" role="article" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h3 id={headingId} className="text-lg font-semibold text-white">
            {subjectName(report)}
          </h3>
          <p className="text-sm text-zinc-300">
            {reportReasonLabels[report.reason]} · reported {formatDate(report.createdAt)}
          </p>
        </div>
        <span className={`rounded-full px-3 py-1 text-xs font-medium ${statusClasses[report.status]}`}>
          {statusText[report.status]}
        </span>
      </div>
      {report.details ? (
        <p className="whitespace-pre-wrap rounded-lg bg-black/20 p-3 text-sm text-zinc-100">
          {report.details}
        </p>
      ) : null}
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-zinc-400">{kind} id: </dt>
          <dd className="inline break-all text-zinc-200">{report.subject.id}</dd>
        </div>
        <div>
          <dt className="inline text-zinc-400">Owner: </dt>
          <dd className="inline break-all text-zinc-200">{report.ownerId}</dd>
        </div>
        <div>
          <dt className="inline text-zinc-400">Reporter: </dt>
          <dd className="inline break-all text-zinc-200">{report.reporterId}</dd>
        </div>
        {report.resolvedAt ? (
          <div>
            <dt className="inline text-zinc-400">Resolved: </dt>
            <dd className="inline text-zinc-200">
              {formatDate(report.resolvedAt)}
              {report.resolvedBy ? ` by ${report.resolvedBy}` : ''}
            </dd>
          </div>
        ) : null}
      </dl>
      {report.status === 'open' ? (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" disabled={pending} onClick={() => onAction('hide')}>
            Hide {kind.toLowerCase()}
          </Button>
          <Button size="sm" variant="outline" disabled={pending} onClick={() => onAction('dismiss')}>
            Dismiss
          </Button>
          <Button size="sm" variant="destructive" disabled={pending} onClick={() => onAction('suspend')}>
            Suspend user
          </Button>
        </div>
      ) : null}
      {report.status === 'hidden' || report.status === 'suspended' ? (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" disabled={pending} onClick={() => onAction('restore')}>
            {report.status === 'suspended' ? 'Lift suspension' : `Show ${kind.toLowerCase()} again`}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}

/** Reports: open ones first, with what an administrator may do; then the latest resolved, which may be undone. */
export function Reports() {
  const reports = useAdminReports();
  const resolve = useResolveReport();
  const [suspending, setSuspending] = useState<AdminReport | null>(null);
  const all = reports.data?.reports ?? [];
  const open = all.filter((r) => r.status === 'open');
  const resolved = all.filter((r) => r.status !== 'open');

  const act = (report: AdminReport, action: ReportAction) =>
    resolve.mutate(
      { id: report.id, action },
      {
        onSuccess: () => {
          setSuspending(null);
          toast({ title: 'Report Updated', description: doneText(report, action) });
        },
        onError: (failure) => {
          setSuspending(null);
          toast({
            title: 'Update Failed',
            description: serverMessage(failure, 'The report could not be updated.'),
            variant: 'destructive',
          });
        },
      },
    );
  const onAction = (report: AdminReport) => (action: ReportAction) =>
    action === 'suspend' ? setSuspending(report) : act(report, action);
  const pendingFor = (report: AdminReport) => resolve.isPending && resolve.variables?.id === report.id;

  return (
    <AdminPage
      title="Reports"
      badge={
        reports.isSuccess ? (
          <span className="rounded-full bg-white/10 px-3 py-1 text-sm text-zinc-200">{open.length} open</span>
        ) : null
      }
    >
      {reports.isError ? <LoadFailed what="reports" onRetry={() => void reports.refetch()} /> : null}
      {reports.isLoading ? <Spinner label="Loading reports" /> : null}
      {reports.isSuccess ? (
        <>
          <section aria-labelledby="open-reports" className="grid gap-4">
            <h2 id="open-reports" className="text-xl font-semibold text-white">
              Open
            </h2>
            {open.length === 0 ? <EmptyState>No open reports</EmptyState> : null}
            {open.map((report) => (
              <ReportCard
                key={report.id}
                report={report}
                pending={pendingFor(report)}
                onAction={onAction(report)}
              />
            ))}
          </section>
          {resolved.length > 0 ? (
            <section aria-labelledby="resolved-reports" className="grid gap-4">
              <h2 id="resolved-reports" className="text-xl font-semibold text-white">
                Resolved
              </h2>
              {resolved.map((report) => (
                <ReportCard
                  key={report.id}
                  report={report}
                  pending={pendingFor(report)}
                  onAction={onAction(report)}
                />
              ))}
            </section>
          ) : null}
        </>
      ) : null}
      <ConfirmDialog
        open={suspending !== null}
        onOpenChange={(isOpen) => !isOpen && setSuspending(null)}
        title="Suspend this user?"
        description={
          suspending
            ? `${subjectName(suspending)} is hidden, the owner's profile is hidden, and they are signed out everywhere: they cannot sign in or use their API keys until the suspension is lifted.`
            : undefined
        }
        confirmLabel="Suspend User"
        destructive
        pending={resolve.isPending}
        onConfirm={() => suspending && act(suspending, 'suspend')}
      />
    </AdminPage>
  );
}
