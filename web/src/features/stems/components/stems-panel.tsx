import { useMutation } from '@tanstack/react-query';
import type { TrackStems } from '@tunesmith/shared/stems';
import { lazy, type RefObject, Suspense } from 'react';
import { downloadStems, useTrackStems } from '@/components/tracks/track-stems';
import { UpgradeLink } from '@/components/tracks/upgrade-link';
import { Button } from '@/components/ui/button';
import { refusalMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { stemsMessages } from '../messages';
import type { PlayableStem } from './stems-mixer';

// The mixer (its controls and the Web Audio code) comes only with a track that has stems.
const StemsMixer = lazy(() => import('./stems-mixer'));

export interface StemsPanelProps {
  trackId: string;
  /** The player's audio element, which the mixer follows. */
  audio: RefObject<HTMLAudioElement | null>;
  /** The viewer owns the track: they see the stems being made or failing, and may download them. */
  owner: boolean;
  /** The owner's plan downloads (else Download stems is an upgrade). */
  canDownload: boolean;
  /** The id of what names the track, for the Download stems button. */
  describedBy?: string;
}

/**
 * A track's stems under its player: while they are made (the owner's), that
 * they failed (the owner's), and once ready the mixer, with Download stems for
 * the owner. Nothing for a track without stems, nor where the stems cannot be
 * asked about.
 */
export function StemsPanel({ trackId, audio, owner, canDownload, describedBy }: StemsPanelProps) {
  const stems = useTrackStems(trackId);
  const status = stems.data?.status;
  if (!status || status === 'none') return null;
  if (status === 'processing' || status === 'failed') {
    if (!owner) return null;
    return status === 'processing' ? (
      <p
        role="status"
        className="flex items-center gap-3 rounded-xl border border-sky-400/30 bg-sky-500/10 p-3 text-sm text-sky-100"
      >
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-white/20 border-t-sky-300 motion-reduce:animate-none"
        />
        {stemsMessages.processing}
      </p>
    ) : (
      <p role="status" className="rounded-xl border border-red-400/30 bg-red-500/10 p-3 text-sm text-red-200">
        {stemsMessages.failed}
      </p>
    );
  }
  // Every stem of a ready set has its audio; one without (an answer from a half-written set) is left out.
  const ready = (stems.data?.stems ?? []).flatMap((stem) =>
    stem.audioUrl ? [{ ...stem, audioUrl: stem.audioUrl }] : [],
  );
  if (ready.length === 0) return null;
  return (
    <section aria-labelledby="track-stems" className="grid gap-2 rounded-xl border border-white/10 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="track-stems" className="text-lg font-semibold text-white">
          {stemsMessages.heading}
        </h2>
        {owner ? (
          canDownload ? (
            <DownloadStemsButton trackId={trackId} describedBy={describedBy} />
          ) : (
            <UpgradeLink describedBy={describedBy}>{stemsMessages.upgrade}</UpgradeLink>
          )
        ) : null}
      </div>
      <Suspense fallback={<p className="min-h-8 text-xs text-zinc-400">{stemsMessages.loading}</p>}>
        <StemsMixer
          stems={ready}
          audio={audio}
          refresh={() => stems.refetch().then((answer) => playable(answer.data))}
        />
      </Suspense>
    </section>
  );
}

/** The stems that have their audio: a ready set's all do; one without is left out rather than played silent. */
function playable(answer: TrackStems | undefined): PlayableStem[] {
  return (answer?.stems ?? []).flatMap((stem) =>
    stem.audioUrl ? [{ ...stem, audioUrl: stem.audioUrl }] : [],
  );
}

/** Download stems: the zip of every stem's WAV, by a short-lived link. */
function DownloadStemsButton({ trackId, describedBy }: { trackId: string; describedBy?: string }) {
  const download = useMutation({ mutationFn: downloadStems });
  return (
    <Button
      variant="outline"
      size="sm"
      aria-describedby={describedBy}
      disabled={download.isPending}
      aria-busy={download.isPending}
      onClick={() =>
        download.mutate(trackId, {
          onSuccess: ({ url }) => window.location.assign(url),
          onError: (error) =>
            toast({
              title: stemsMessages.downloadFailedTitle,
              description: refusalMessage(error, stemsMessages.downloadFailed),
              variant: 'destructive',
            }),
        })
      }
    >
      {stemsMessages.download}
    </Button>
  );
}
