import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { ApiError, serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { downloadMessages, useDownloadTrack } from './download-track';

export interface DownloadActionProps {
  trackId: string;
  /** Free-plan users see Upgrade to Download (to /pricing) in place of Download. */
  canDownload: boolean;
  /** The file name's stem, asked for at click time; without it the file is `{title}.wav`. */
  fileName?: () => string;
}

/** What a refused download says: the server's reason when the user can act on it (plan, unfinished track). */
function downloadFailure(error: unknown): string {
  return error instanceof ApiError && (error.status === 403 || error.status === 409)
    ? serverMessage(error, downloadMessages.failed)
    : downloadMessages.failed;
}

/** Downloads a finished track by going to the link the server gives, or offers the upgrade that allows it. */
export function DownloadAction({ trackId, canDownload, fileName }: DownloadActionProps) {
  const download = useDownloadTrack();
  const handleUnauthorized = useUnauthorizedHandler();

  if (!canDownload) {
    return (
      <Link to="/pricing" className={buttonClasses('outline', 'sm')}>
        Upgrade to Download
      </Link>
    );
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
            description: downloadFailure(error),
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
    >
      Download
    </Button>
  );
}
