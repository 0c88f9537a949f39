import type { TrackLicense } from '@tunesmith/shared/ownership';
import { lazy, Suspense, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { DownloadDialogProps } from './download-dialog';
import { TrackLicenseLine } from './track-license';
import { UpgradeLink } from './upgrade-link';

/** Said where Download will be while the track's download is prepared (the API's 409 says the same). */
export const downloadPreparingMessage = 'The download is being prepared';

// The dialog (and its download call) loads when Download is first pressed: the button stands on
// pages that visitors see too (the track page offers it to the owner), and they never open it.
const DownloadDialog = lazy(() => import('./download-dialog'));

export interface DownloadActionProps extends Pick<DownloadDialogProps, 'trackId' | 'title' | 'fileName'> {
  /** What the track may be used for (its plan's license when it was made); null for tracks from before. */
  license: Pick<TrackLicense, 'summary'> | null | undefined;
  /** Free-plan users see Upgrade to Download (to /pricing) in place of Download. */
  canDownload: boolean;
  /**
   * The WAV download is there. A track plays at once and its download follows moments later:
   * until then the place of Download says so (the page checks the track again meanwhile).
   */
  ready: boolean;
  /** The id of what names the track, where several tracks' actions sit side by side. */
  describedBy?: string;
}

/**
 * Download opens a dialog that says what the track may be used for (its
 * license) before the WAV is fetched. A plan without downloads gets the
 * upgrade that allows them.
 */
export function DownloadAction({ canDownload, ready, describedBy, license, ...dialog }: DownloadActionProps) {
  const [open, setOpen] = useState(false);
  const licenseId = useId();

  if (!canDownload) {
    return <UpgradeLink describedBy={describedBy}>Upgrade to Download</UpgradeLink>;
  }
  if (!ready) {
    return (
      <p role="status" className="inline-flex h-9 items-center gap-2 text-sm text-slate-300">
        <span
          aria-hidden="true"
          className="size-3 animate-spin rounded-full border-2 border-slate-500 border-t-slate-200 motion-reduce:animate-none"
        />
        {downloadPreparingMessage}
      </p>
    );
  }

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-describedby={describedBy}
      >
        Download
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <DownloadDialog
            {...dialog}
            license={<TrackLicenseLine license={license} id={licenseId} />}
            licenseId={licenseId}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
