import type { Playlist, PlaylistCard } from '@tunesmith/shared/community';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { trackTitle } from '@/components/tracks/track-title';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { refusalMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import {
  useCreatePlaylist,
  useDeletePlaylist,
  useMyPlaylists,
  usePlaylist,
  useSetPlaylistTracks,
  useUpdatePlaylist,
} from '../api/playlists';
import { playlistText } from '../messages';
import { PlaylistFormDialog } from './playlist-form-dialog';

/** The order with the track at `from` moved to `to`. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/**
 * The library's Playlists tab: make a playlist, and for each of one's own, open it, edit its title,
 * description and visibility, put its tracks in order (Move Up / Move Down), remove tracks, or
 * delete it after a confirmation.
 */
export function MyPlaylists({ headingLevel: Heading = 'h2' }: { headingLevel?: 'h1' | 'h2' }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const playlists = useMyPlaylists();
  const create = useCreatePlaylist();
  const [creating, setCreating] = useState(false);

  return (
    <section aria-labelledby={headingId} className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Heading
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-bold text-white focus:outline-none sm:text-3xl"
        >
          My Playlists
        </Heading>
        <Button onClick={() => setCreating(true)}>New Playlist</Button>
      </div>
      {playlists.isPending ? (
        <div className="grid gap-3" aria-busy="true">
          <span className="sr-only">Loading your playlists</span>
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : playlists.isError ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-red-300">{refusalMessage(playlists.error, playlistText.loadFailed)}</p>
          <Button variant="outline" size="sm" onClick={() => void playlists.refetch()}>
            Try Again
          </Button>
        </div>
      ) : playlists.data.length === 0 ? (
        <p className="text-zinc-300">{playlistText.empty}</p>
      ) : (
        <ul className="grid gap-4" aria-label="Your playlists">
          {playlists.data.map((playlist) => (
            <li key={playlist.id}>
              <PlaylistItem playlist={playlist} onDeleted={() => heading.current?.focus()} />
            </li>
          ))}
        </ul>
      )}
      <PlaylistFormDialog
        open={creating}
        onClose={() => setCreating(false)}
        onSubmit={(input) => create.mutateAsync(input)}
      />
    </section>
  );
}

function PlaylistItem({ playlist, onDeleted }: { playlist: PlaylistCard; onDeleted: () => void }) {
  const titleId = useId();
  const tracksId = useId();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [managing, setManaging] = useState(false);
  const update = useUpdatePlaylist();
  const remove = useDeletePlaylist();
  const handleUnauthorized = useUnauthorizedHandler();

  const confirmDelete = () => {
    remove.mutate(playlist.id, {
      onSuccess: () => {
        setDeleting(false);
        toast({ title: playlistText.deletedTitle, description: `${playlist.title} is gone.` });
        // The item and its buttons are gone: focus goes to the list's heading.
        window.setTimeout(onDeleted, 0);
      },
      onError: (error) => {
        setDeleting(false);
        if (handleUnauthorized(error)) return;
        toast({
          title: playlistText.deleteFailed,
          description: refusalMessage(error, 'Please try again.'),
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <Card className="grid gap-4 p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="text-lg font-semibold break-words text-white">
            <Link to={`/playlist/${playlist.id}`} className="hover:underline">
              {playlist.title}
            </Link>
          </h3>
          <p className="text-sm text-zinc-400">{playlist.visibility === 'public' ? 'Public' : 'Private'}</p>
          {playlist.description ? (
            <p className="mt-1 line-clamp-2 text-sm text-zinc-300">{playlist.description}</p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            aria-expanded={managing}
            aria-controls={tracksId}
            aria-describedby={titleId}
            onClick={() => setManaging((open) => !open)}
          >
            {managing ? 'Hide Tracks' : 'Edit Tracks'}
          </Button>
          <Button variant="outline" size="sm" aria-describedby={titleId} onClick={() => setEditing(true)}>
            Edit Details
          </Button>
          <Button variant="outline" size="sm" aria-describedby={titleId} onClick={() => setDeleting(true)}>
            Delete
          </Button>
        </div>
      </div>
      <div id={tracksId}>{managing ? <PlaylistTracksEditor id={playlist.id} /> : null}</div>
      <PlaylistFormDialog
        open={editing}
        onClose={() => setEditing(false)}
        playlist={playlist}
        onSubmit={(input) =>
          update.mutateAsync({
            id: playlist.id,
            input: { ...input, description: input.description ?? '' },
          })
        }
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={(open) => {
          if (!remove.isPending) setDeleting(open);
        }}
        title="Delete this playlist?"
        description={
          <>
            <span className="font-medium text-white">{playlist.title}</span> is deleted for good. Its tracks
            stay where they are.
          </>
        }
        confirmLabel="Delete Playlist"
        onConfirm={confirmDelete}
        pending={remove.isPending}
        destructive
      />
    </Card>
  );
}

/** One playlist's tracks in order, each with Move Up, Move Down and Remove; every change is saved at once. */
function PlaylistTracksEditor({ id }: { id: string }) {
  const playlist = usePlaylist(id);
  const setTracks = useSetPlaylistTracks();
  const handleUnauthorized = useUnauthorizedHandler();
  const [announcement, setAnnouncement] = useState('');
  const list = useRef<HTMLOListElement>(null);

  if (playlist.isPending) return <Skeleton className="h-16 w-full" />;
  if (playlist.isError) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-red-300">{refusalMessage(playlist.error, playlistText.loadFailed)}</p>
        <Button variant="outline" size="sm" onClick={() => void playlist.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  const tracks = playlist.data.tracks;
  if (tracks.length === 0) return <p className="text-sm text-zinc-400">{playlistText.emptyPlaylist}</p>;

  const save = (next: Playlist['tracks'], said: string, focus?: { trackId: string; action: string }) => {
    setTracks.mutate(
      { id, trackIds: next.map((track) => track.id) },
      {
        onSuccess: () => {
          setAnnouncement(said);
          // The moved track keeps focus on the same button at its new place (or the list, at an end).
          window.setTimeout(() => {
            const target = focus
              ? list.current?.querySelector<HTMLButtonElement>(
                  `[data-track="${focus.trackId}"][data-action="${focus.action}"]:not(:disabled)`,
                )
              : null;
            (target ?? list.current?.querySelector<HTMLButtonElement>('button:not(:disabled)'))?.focus();
          }, 0);
        },
        onError: (error) => {
          if (handleUnauthorized(error)) return;
          toast({
            title: playlistText.orderFailed,
            description: refusalMessage(error, 'Please try again.'),
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <div className="grid gap-2">
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <ol
        ref={list}
        className="grid gap-2"
        aria-label={`Tracks of ${playlist.data.title}`}
        aria-busy={setTracks.isPending}
      >
        {tracks.map((track, index) => {
          const title = trackTitle(track);
          const labelId = `${id}-${track.id}-title`;
          return (
            <li
              key={track.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-white/10 bg-zinc-950/40 px-3 py-2"
            >
              <span id={labelId} className="min-w-0 text-sm text-white">
                <span className="mr-2 text-zinc-400">{index + 1}.</span>
                {title}
              </span>
              <span className="flex gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  data-track={track.id}
                  data-action="up"
                  aria-label={`Move ${title} up`}
                  disabled={index === 0 || setTracks.isPending}
                  onClick={() =>
                    save(moved(tracks, index, index - 1), `${title} moved to ${index} of ${tracks.length}.`, {
                      trackId: track.id,
                      action: 'up',
                    })
                  }
                >
                  Move Up
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  data-track={track.id}
                  data-action="down"
                  aria-label={`Move ${title} down`}
                  disabled={index === tracks.length - 1 || setTracks.isPending}
                  onClick={() =>
                    save(
                      moved(tracks, index, index + 1),
                      `${title} moved to ${index + 2} of ${tracks.length}.`,
                      {
                        trackId: track.id,
                        action: 'down',
                      },
                    )
                  }
                >
                  Move Down
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${title} from the playlist`}
                  disabled={setTracks.isPending}
                  onClick={() =>
                    save(
                      tracks.filter((other) => other.id !== track.id),
                      `${title} removed from the playlist.`,
                    )
                  }
                >
                  Remove
                </Button>
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
