import type { TrackLicense } from '@tunesmith/shared/ownership';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { refusalMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { downloadMessages, useDownloadTrack } from './download-track';
import { TrackLicenseLine } from './track-license';
import { UpgradeLink } from './upgrade-link';

export interface DownloadActionProps {
  trackId: string;
  /** The name the dialog gives the track (its title, or Untitled Track). */
  title: string;
  /** What the track may be used for (its plan's license when it was made); null for tracks from before. */
  license: Pick<TrackLicense, 'summary'> | null | undefined;
  /** Free-plan users see Upgrade to Download (to /pricing) in place of Download. */
  canDownload: boolean;
  /** The file name's stem, asked for at click time; without it the file is `{title}.wav`. */
  fileName?: () => string;
  /** The id of what names the track, where several tracks' actions sit side by side. */
  describedBy?: string;
}

/**
 * Download opens a dialog that says what the track may be used for (its
 * license) before the WAV is fetched; Download WAV goes to the link the
 * server gives. A plan without downloads gets the upgrade that allows them.
 */
export function DownloadAction({
  trackId,
  title,
  license,
  canDownload,
  fileName,
  describedBy,
}: DownloadActionProps) {
  const [open, setOpen] = useState(false);
  const download = useDownloadTrack();
  const handleUnauthorized = useUnauthorizedHandler();
  const licenseId = useId();

  if (!canDownload) {
    return <UpgradeLink describedBy={describedBy}>Upgrade to Download</UpgradeLink>;
  }

  const startDownload = () => {
    download.mutate(
      { id: trackId, name: fileName?.() },
      {
        onSuccess: ({ url }) => {
          setOpen(false);
          window.location.assign(url);
        },
        onError: (error) => {
          setOpen(false);
          if (handleUnauthorized(error)) return;
          toast({
            title: downloadMessages.failedTitle,
            description: refusalMessage(error, downloadMessages.failed),
            variant: 'destructive',
          });
        },
      },
    );
  };

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
        <Dialog open onClose={() => setOpen(false)} title="Download Track" description={title}>
          <div className="grid gap-5">
            <TrackLicenseLine license={license} id={licenseId} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={() => setOpen(false)} disabled={download.isPending}>
                Cancel
              </Button>
              <Button
                onClick={startDownload}
                disabled={download.isPending}
                aria-busy={download.isPending}
                aria-describedby={licenseId}
              >
                {download.isPending ? 'Preparing...' : 'Download WAV'}
              </Button>
            </div>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
