import { type AdminTrack, adminToasts, adminTrackTitleSchema } from '@tunesmith/shared/admin';
import { LYRICS_PREVIEW_LENGTH } from '@tunesmith/shared/constants';
import { type KeyboardEvent, useId, useState } from 'react';
import { AudioPlayer } from '@/components/tracks/audio-player';
import { StatusBadge, VisibilityBadge } from '@/components/tracks/track-badges';
import { trackTitle } from '@/components/tracks/track-title';
import { trackTypeName } from '@/components/tracks/track-type';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icon';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { ApiError, serverMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { downloadLink, useGalleryVisibility, useRenameTrack } from '../api';

const textIcon = 'M9 18V5l12-2v13M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0zm12-2a3 3 0 1 1-6 0 3 3 0 0 1 6 0z';
const audioIcon = 'M3 12h2l3-8 4 16 3-8h6';

/** The title, edited in place: Enter saves, Escape cancels. */
function InlineTitle({ track }: { track: AdminTrack }) {
  const id = useId();
  const rename = useRenameTrack();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const title = trackTitle(track);

  const start = () => {
    setValue(track.title ?? '');
    setError(null);
    setEditing(true);
  };
  const save = () => {
    const parsed = adminTrackTitleSchema.safeParse({ title: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? adminToasts.failedTrackTitle);
      return;
    }
    rename.mutate(
      { id: track.id, title: parsed.data.title },
      {
        onSuccess: () => {
          setEditing(false);
          toast({ title: 'Track Updated', description: `Renamed to "${parsed.data.title}".` });
        },
        onError: (failure) =>
          toast({
            title: adminToasts.updateFailed,
            description: serverMessage(failure, adminToasts.failedTrackTitle),
            variant: 'destructive',
          }),
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setEditing(false);
    }
  };

  if (!editing) {
    return (
      <button
        type="button"
        onClick={start}
        className="text-left text-lg font-semibold text-white hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-300"
        aria-label={`${title}, edit title`}
      >
        {title}
      </button>
    );
  }
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="sr-only">
        Track title
      </label>
      <Input
        id={id}
        autoFocus
        value={value}
        maxLength={200}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => !rename.isPending && setEditing(false)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        disabled={rename.isPending}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-300">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-zinc-400">
          Enter saves, Escape cancels.
        </p>
      )}
    </div>
  );
}

/** One track of the admin list: what it is, its state, and what an admin may do to it. */
export function TrackRow({ track, onDelete }: { track: AdminTrack; onDelete: () => void }) {
  const gallery = useGalleryVisibility();
  const [downloading, setDownloading] = useState(false);
  const title = trackTitle(track);
  const completed = track.status === 'completed';
  const lyrics = track.lyrics?.trim() ?? '';

  const toggleGallery = (showInGallery: boolean) =>
    gallery.mutate(
      { id: track.id, showInGallery },
      {
        onSuccess: () =>
          toast({
            title: 'Track Updated',
            description: showInGallery
              ? `"${title}" is shown in the gallery.`
              : `"${title}" is hidden from the gallery.`,
          }),
        onError: (failure) =>
          toast({
            title: adminToasts.updateFailed,
            description: serverMessage(failure, adminToasts.failedTrackVisibility),
            variant: 'destructive',
          }),
      },
    );

  const download = async () => {
    setDownloading(true);
    try {
      const { url } = await downloadLink(track.id);
      window.location.assign(url);
    } catch (failure) {
      const notReady = failure instanceof ApiError && failure.status === 409;
      toast({
        title: adminToasts.downloadFailed,
        description: notReady ? adminToasts.trackNotReady : adminToasts.failedDownload,
        variant: 'destructive',
      });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card className="grid gap-3 p-5">
      <article aria-label={title} className="grid gap-3">
        <div className="flex flex-wrap items-start gap-3">
          <span
            className="grid size-10 shrink-0 place-items-center rounded-lg bg-violet-600/30 text-violet-200"
            title={trackTypeName(track.type)}
          >
            <Icon d={track.type === 'audio-to-music' ? audioIcon : textIcon} className="size-5" />
            <span className="sr-only">{trackTypeName(track.type)}</span>
          </span>
          <div className="min-w-0 flex-1">
            <InlineTitle track={track} />
            <div className="mt-1 flex flex-wrap gap-2">
              <StatusBadge status={track.status} />
              <VisibilityBadge visibility={track.visibility} />
              {track.visibility === 'public' && !track.showInGallery ? (
                <span className="rounded-full border border-amber-400/40 px-2 py-0.5 text-xs text-amber-200">
                  Hidden from gallery
                </span>
              ) : null}
              {track.hidden ? (
                <span className="rounded-full border border-red-400/40 px-2 py-0.5 text-xs text-red-200">
                  Hidden after a report
                </span>
              ) : null}
            </div>
          </div>
        </div>
        <p className="text-sm text-zinc-300">
          <span className="text-zinc-400">Tags: </span>
          {track.tags}
        </p>
        {lyrics ? (
          <p className="text-sm text-zinc-400">
            {lyrics.length > LYRICS_PREVIEW_LENGTH ? `${lyrics.slice(0, LYRICS_PREVIEW_LENGTH)}...` : lyrics}
          </p>
        ) : null}
        <p className="text-xs text-zinc-400">
          Created {formatDate(track.createdAt)}
          {track.duration ? ` · ${track.duration}s` : ''}
        </p>
        {completed && track.audioUrl ? (
          <AudioPlayer src={track.audioUrl} title={title} duration={track.duration} />
        ) : null}
      </article>
      <div className="flex flex-wrap items-center gap-3">
        {completed && track.audioUrl ? (
          <Button
            size="sm"
            variant="outline"
            onClick={() => void download()}
            disabled={downloading}
            aria-label={`Download ${title}`}
          >
            {downloading ? 'Preparing...' : 'Download'}
          </Button>
        ) : null}
        <Button
          size="sm"
          variant="ghost"
          className="text-red-300 hover:text-red-200"
          onClick={onDelete}
          aria-label={`Delete ${title}`}
        >
          Delete
        </Button>
        {track.visibility === 'public' && completed ? (
          <div className="ml-auto flex items-center gap-2">
            <Switch
              checked={track.showInGallery}
              onCheckedChange={toggleGallery}
              disabled={gallery.isPending}
              aria-label={`Show ${title} in Gallery`}
            />
            <span className="text-sm text-zinc-300">Show in Gallery</span>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
