import { LYRICS_PREVIEW_LENGTH, TITLE_MAX_LENGTH } from '@tunesmith/shared/constants';
import { updateGenerationSchema } from '@tunesmith/shared/generations';
import { analysisLabel } from '@tunesmith/shared/musical-keys';
import { isInProgress, type Track, trackSubtitle } from '@tunesmith/shared/tracks';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { AudioPlayer } from '@/components/tracks/audio-player';
import { DownloadAction } from '@/components/tracks/download-action';
import { ShareButton } from '@/components/tracks/share-button';
import { StatusBadge, VisibilityBadge } from '@/components/tracks/track-badges';
import { editSummary } from '@/components/tracks/track-edit';
import { trackModelName } from '@/components/tracks/track-model';
import { trackTitle } from '@/components/tracks/track-title';
import { trackTypeName } from '@/components/tracks/track-type';
import { UpgradeLink } from '@/components/tracks/upgrade-link';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { refusalMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useUpdateGeneration } from '../api/update-generation';
import { libraryMessages } from '../messages';
import { lyricsPreview } from '../utils/filter-tracks';

export interface LibraryTrackCardProps {
  track: Track;
  /** Free-plan users see Upgrade to Download (to /pricing) in place of Download. */
  canDownload: boolean;
  /**
   * Free-plan users see Upgrade to Make Private (to /pricing) in place of Make
   * Private; a private track of theirs can still be made public.
   */
  canMakePrivate: boolean;
  onDelete: (track: Track) => void;
  /** The title's heading level: one below the library's heading (default `h3`). */
  headingLevel?: 'h2' | 'h3';
  /** More actions the page adds (the studio's menu), given the id of the card's title. */
  actions?: (describedBy: string) => ReactNode;
  /** Move focus to this card's title (a track just made in the studio), then call `onFocusTaken`. */
  takeFocus?: boolean;
  onFocusTaken?: () => void;
}

/**
 * One track of the library: status, title (renamed inline: Enter saves,
 * Escape cancels), tags, lyrics preview, player, details and the owner's
 * actions (visibility, download, share, delete).
 */
export function LibraryTrackCard({
  track,
  canDownload,
  canMakePrivate,
  onDelete,
  headingLevel: Heading = 'h3',
  actions,
  takeFocus = false,
  onFocusTaken,
}: LibraryTrackCardProps) {
  const id = useId();
  const title = trackTitle(track);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const titleInput = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  // After an edit ends, keyboard focus goes back to the Rename button instead of the page's start.
  const refocusRename = useRef(false);
  const update = useUpdateGeneration();
  const handleUnauthorized = useUnauthorizedHandler();
  const heading = useRef<HTMLHeadingElement>(null);
  const focusTaken = useRef(onFocusTaken);
  focusTaken.current = onFocusTaken;

  useEffect(() => {
    if (!takeFocus) return;
    // After the dialog that made the track has closed and given focus back (on a timer of its own).
    const timer = window.setTimeout(() => {
      heading.current?.focus();
      focusTaken.current?.();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [takeFocus]);

  useEffect(() => {
    if (editing) {
      titleInput.current?.focus();
      titleInput.current?.select();
    } else if (refocusRename.current) {
      refocusRename.current = false;
      renameButton.current?.focus();
    }
  }, [editing]);

  const startEditing = () => {
    setDraft(track.title ?? '');
    setEditing(true);
  };

  const stopEditing = () => {
    refocusRename.current = true;
    setEditing(false);
  };

  const saveTitle = () => {
    if (update.isPending) return;
    if (draft.trim() === (track.title ?? '').trim()) {
      stopEditing();
      return;
    }
    const parsed = updateGenerationSchema.safeParse({ title: draft, visibility: track.visibility });
    if (!parsed.success) {
      toast({
        title: libraryMessages.updateFailedTitle,
        description: parsed.error.issues[0]?.message ?? libraryMessages.titleUpdateFailed,
        variant: 'destructive',
      });
      return;
    }
    update.mutate(
      { id: track.id, input: parsed.data },
      {
        onSuccess: () => {
          toast({ title: libraryMessages.updatedTitle });
          stopEditing();
        },
        onError: (error) => {
          if (handleUnauthorized(error)) return;
          toast({
            title: libraryMessages.updateFailedTitle,
            description: refusalMessage(error, libraryMessages.titleUpdateFailed),
            variant: 'destructive',
          });
        },
      },
    );
  };

  const onTitleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      saveTitle();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      stopEditing();
    }
  };

  const toggleVisibility = () => {
    // The call always carries the title too; an untitled track keeps the name it shows.
    const input = {
      title,
      visibility: track.visibility === 'public' ? 'private' : 'public',
    } as const;
    update.mutate(
      { id: track.id, input },
      {
        onSuccess: () => toast({ title: libraryMessages.updatedTitle }),
        onError: (error) => {
          if (handleUnauthorized(error)) return;
          toast({
            title: libraryMessages.updateFailedTitle,
            description: refusalMessage(error, libraryMessages.visibilityUpdateFailed),
            variant: 'destructive',
          });
        },
      },
    );
  };

  // Each action is described by the card's title, so a screen reader says which track it acts on.
  const headingId = `${id}-title`;
  const preview = lyricsPreview(track.lyrics, LYRICS_PREVIEW_LENGTH);
  const completed = track.status === 'completed';
  return (
    <Card className="flex h-full flex-col gap-4 p-5">
      <article aria-labelledby={headingId} className="flex h-full flex-col gap-4">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={track.status} />
          <VisibilityBadge visibility={track.visibility} />
        </div>

        <div className="min-w-0">
          {editing ? (
            <div className="flex flex-wrap items-center gap-2">
              {/* The heading stays for the article's name while the input edits it. */}
              <Heading id={headingId} className="sr-only">
                {title}
              </Heading>
              <Input
                ref={titleInput}
                aria-label="Track title"
                aria-describedby={`${id}-edit-hint`}
                value={draft}
                maxLength={TITLE_MAX_LENGTH}
                readOnly={update.isPending}
                aria-busy={update.isPending}
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={onTitleKeyDown}
                className="min-w-0 flex-1"
              />
              <Button size="sm" onClick={saveTitle} disabled={update.isPending}>
                Save
              </Button>
              <Button size="sm" variant="ghost" onClick={stopEditing} disabled={update.isPending}>
                Cancel
              </Button>
              <p id={`${id}-edit-hint`} className="w-full text-xs text-zinc-400">
                Press Enter to save or Escape to cancel.
              </p>
            </div>
          ) : (
            <div className="flex items-start justify-between gap-2">
              <Heading
                id={headingId}
                ref={heading}
                tabIndex={-1}
                className="line-clamp-2 rounded text-lg font-semibold text-white focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300"
              >
                {title}
              </Heading>
              <Button
                ref={renameButton}
                variant="ghost"
                size="sm"
                onClick={startEditing}
                disabled={update.isPending}
                aria-describedby={headingId}
              >
                Rename
              </Button>
            </div>
          )}
          <p className="text-sm text-fuchsia-300">{trackSubtitle(track.type)}</p>
          {track.edit ? <p className="mt-1 text-xs text-violet-200">{editSummary(track.edit)}</p> : null}
        </div>

        {track.tags ? <p className="line-clamp-2 text-sm text-zinc-300">{track.tags}</p> : null}
        {preview ? <p className="text-sm whitespace-pre-line text-zinc-400 italic">{preview}</p> : null}

        {track.audioUrl ? (
          <AudioPlayer
            src={track.audioUrl}
            title={title}
            duration={track.duration}
            peaksUrl={track.peaksUrl}
          />
        ) : null}
        {isInProgress(track.status) ? (
          <p className="flex items-center gap-3 rounded-xl border border-sky-400/30 bg-sky-500/10 p-3 text-sm text-sky-100">
            <span
              aria-hidden="true"
              className="size-4 animate-spin rounded-full border-2 border-white/20 border-t-sky-300 motion-reduce:animate-none"
            />
            Track is still generating...
          </p>
        ) : null}

        <dl className="grid grid-cols-3 gap-2 text-xs text-zinc-400">
          <div>
            <dt className="sr-only">Duration</dt>
            <dd>{track.duration != null ? `${Math.round(track.duration)}s` : '—'}</dd>
          </div>
          <div>
            <dt className="sr-only">Type</dt>
            <dd>{trackTypeName(track.type)}</dd>
          </div>
          <div className="text-right">
            <dt className="sr-only">Created</dt>
            <dd>{formatDate(track.createdAt)}</dd>
          </div>
          <div className="col-span-3 flex gap-1">
            <dt>Model</dt>
            <dd className="text-zinc-300">{trackModelName(track)}</dd>
          </div>
          {track.analysis ? (
            <div className="col-span-3">
              <dt className="sr-only">Tempo and key</dt>
              <dd>{analysisLabel(track.analysis)}</dd>
            </div>
          ) : null}
        </dl>

        <div className="mt-auto flex flex-wrap gap-2 border-t border-white/10 pt-4">
          {track.visibility === 'public' && !canMakePrivate ? (
            <UpgradeLink describedBy={headingId}>Upgrade to Make Private</UpgradeLink>
          ) : (
            <Button
              variant="outline"
              size="sm"
              onClick={toggleVisibility}
              disabled={update.isPending}
              aria-describedby={headingId}
            >
              {track.visibility === 'public' ? 'Make Private' : 'Make Public'}
            </Button>
          )}
          {completed && track.audioUrl ? (
            <DownloadAction
              trackId={track.id}
              title={title}
              license={track.license}
              canDownload={canDownload}
              ready={track.downloadReady}
              describedBy={headingId}
            />
          ) : null}
          <ShareButton trackId={track.id} />
          {actions?.(headingId)}
          <Button
            variant="destructive"
            size="sm"
            onClick={() => onDelete(track)}
            aria-describedby={headingId}
          >
            Delete
          </Button>
        </div>
      </article>
    </Card>
  );
}
