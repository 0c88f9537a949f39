import { Button } from '@/components/ui/button';
import { refusalMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { downloadMessages, useDownloadTrack } from './download-track';
import { UpgradeLink } from './upgrade-link';

export interface DownloadActionProps {
  trackId: string;
  /** Free-plan users see Upgrade to Download (to /pricing) in place of Download. */
  canDownload: boolean;
  /** The file name's stem, asked for at click time; without it the file is `{title}.wav`. */
  fileName?: () => string;
  /** The id of what names the track, where several tracks' actions sit side by side. */
  describedBy?: string;
}

/** Downloads a finished track by going to the link the server gives, or offers the upgrade that allows it. */
export function DownloadAction({ trackId, canDownload, fileName, describedBy }: DownloadActionProps) {
  const download = useDownloadTrack();
  const handleUnauthorized = useUnauthorizedHandler();

  if (!canDownload) {
    return <UpgradeLink describedBy={describedBy}>Upgrade to Download</UpgradeLink>;
  }

  const startDownload = () => {
    download.mutate(
      { id: trackId, name: fileName?.() },
      {
        onSuccess: ({ url }) => window.location.assign(url),
        onError: (error) => {
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
    <Button
      variant="outline"
      size="sm"
      onClick={startDownload}
      disabled={download.isPending}
      aria-busy={download.isPending}
      aria-describedby={describedBy}
    >
      Download
    </Button>
  );
}
