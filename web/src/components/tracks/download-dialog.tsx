import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { refusalMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { downloadMessages, useDownloadTrack } from './download-track';

export interface DownloadDialogProps {
  trackId: string;
  /** The name the dialog gives the track (its title, or Untitled Track). */
  title: string;
  /** The file name's stem, asked for at click time; without it the file is `{title}.wav`. */
  fileName?: () => string;
  /** What the track may be used for (its license line), and the id that line carries. */
  license: ReactNode;
  licenseId: string;
  onClose: () => void;
}

/**
 * Download Track: what the track may be used for (its license), then
 * Download WAV goes to the link the server gives.
 */
export default function DownloadDialog({
  trackId,
  title,
  fileName,
  license,
  licenseId,
  onClose,
}: DownloadDialogProps) {
  const download = useDownloadTrack();
  const handleUnauthorized = useUnauthorizedHandler();

  const startDownload = () => {
    download.mutate(
      { id: trackId, name: fileName?.() },
      {
        onSuccess: ({ url }) => {
          onClose();
          window.location.assign(url);
        },
        onError: (error) => {
          onClose();
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
    <Dialog open onClose={onClose} title="Download Track" description={title}>
      <div className="grid gap-5">
        {license}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={download.isPending}>
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
  );
}
