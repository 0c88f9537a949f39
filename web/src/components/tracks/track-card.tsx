import { messages } from '@tunesmith/shared/messages';
import { type Track, trackSubtitle, trackTypeLabel, UNTITLED_TRACK } from '@tunesmith/shared/tracks';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { toast } from '@/lib/toast';
import { AudioPlayer } from './audio-player';

export type TrackCardTrack = Pick<Track, 'id' | 'title' | 'tags' | 'duration' | 'type' | 'audioUrl'>;

/** The full share address of a track. */
export function trackShareUrl(id: string): string {
  return `${window.location.origin}/track/${encodeURIComponent(id)}`;
}

async function shareTrack(id: string) {
  try {
    await navigator.clipboard.writeText(trackShareUrl(id));
    toast({ title: messages.share.copiedTitle, description: messages.share.copiedText });
  } catch {
    toast({
      title: messages.share.failedTitle,
      description: messages.share.failedText,
      variant: 'destructive',
    });
  }
}

/** A track in the gallery or a library: title, tags, player, duration, type and a share action. */
export function TrackCard({ track }: { track: TrackCardTrack }) {
  const title = track.title?.trim() || UNTITLED_TRACK;
  return (
    <Card className="flex flex-col gap-4 p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate text-lg font-semibold text-white">{title}</h3>
          <p className="text-sm text-fuchsia-300">{trackSubtitle(track.type)}</p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => shareTrack(track.id)}
          aria-label={`Share ${title}`}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7M16 6l-4-4-4 4M12 2v13" />
          </svg>
          Share
        </Button>
      </div>
      {track.tags ? <p className="line-clamp-2 text-sm text-zinc-300">{track.tags}</p> : null}
      {track.audioUrl ? <AudioPlayer src={track.audioUrl} title={title} duration={track.duration} /> : null}
      <div className="mt-auto flex items-center justify-between text-xs text-zinc-400">
        <span>{track.duration != null ? `${Math.round(track.duration)}s` : '—'}</span>
        <span className="rounded-full bg-white/10 px-2 py-0.5 text-zinc-200">
          {trackTypeLabel(track.type)}
        </span>
      </div>
    </Card>
  );
}
