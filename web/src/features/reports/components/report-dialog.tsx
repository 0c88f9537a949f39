import { zodResolver } from '@hookform/resolvers/zod';
import {
  REPORT_DETAILS_MAX,
  type ReportRequest,
  reportReasons,
  reportSchema,
} from '@tunesmith/shared/community';
import { reportMessages, reportReasonLabels } from '@tunesmith/shared/reports';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { fieldClasses } from '@/components/ui/input';
import { refusalMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { type ReportSubject, useReport } from '../api';

/**
 * Reports a track or a profile to the administrators: a reason (one of the list) and, if the reporter
 * wishes, what is wrong in their own words. Sent once; a repeat is accepted and not counted twice.
 */
export function ReportDialog({
  subject,
  name,
  onClose,
}: {
  subject: ReportSubject;
  /** What is reported, as the dialog's title names it. */
  name: string;
  onClose: () => void;
}) {
  const id = useId();
  const report = useReport(subject);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ReportRequest>({
    resolver: zodResolver(reportSchema),
    defaultValues: { details: '' },
    reValidateMode: 'onSubmit',
  });
  const reasonError = form.formState.errors.reason ? 'Choose a reason.' : undefined;
  const detailsError = form.formState.errors.details?.message;

  const submit = form.handleSubmit((input) => {
    setFormError(null);
    report.mutate(
      { reason: input.reason, ...(input.details?.trim() ? { details: input.details.trim() } : {}) },
      {
        onSuccess: () => {
          toast({ title: 'Report Sent', description: reportMessages.reported });
          onClose();
        },
        onError: (error) =>
          setFormError(refusalMessage(error, 'The report could not be sent. Please try again.')),
      },
    );
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Report ${name}`}
      description="Tell the administrators what is wrong. They will look at it; the owner is not told who reported it."
    >
      <form noValidate onSubmit={submit} className="grid gap-4" aria-label={`Report ${name}`}>
        <fieldset
          className="grid gap-2"
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `${id}-reason-error` : undefined}
        >
          <legend className="mb-1 text-sm font-medium text-zinc-100">Reason</legend>
          {reportReasons.map((reason) => (
            <label key={reason} className="flex cursor-pointer items-center gap-3 text-sm text-zinc-200">
              <input
                type="radio"
                value={reason}
                className="size-4 accent-violet-500"
                {...form.register('reason', { onChange: () => form.clearErrors('reason') })}
              />
              {reportReasonLabels[reason]}
            </label>
          ))}
          {reasonError ? (
            <p id={`${id}-reason-error`} className="text-sm text-red-300">
              {reasonError}
            </p>
          ) : null}
        </fieldset>
        <div className="grid gap-2">
          <label htmlFor={`${id}-details`} className="text-sm font-medium text-zinc-100">
            Details (optional)
          </label>
          <textarea
            id={`${id}-details`}
            maxLength={REPORT_DETAILS_MAX}
            className={cn(fieldClasses, 'min-h-24 resize-y')}
            aria-invalid={detailsError ? true : undefined}
            aria-describedby={detailsError ? `${id}-details-error` : undefined}
            {...form.register('details')}
          />
          {detailsError ? (
            <p id={`${id}-details-error`} className="text-sm text-red-300">
              {detailsError}
            </p>
          ) : null}
        </div>
        {formError ? (
          <p
            role="alert"
            className="rounded-lg border border-red-400/30 bg-red-500/10 p-3 text-sm text-red-200"
          >
            {formError}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={report.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={report.isPending}>
            {report.isPending ? 'Sending...' : 'Send Report'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
