import type { Track } from '@tunesmith/shared/tracks';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { trackTitle } from '@/components/tracks/track-title';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { canDownloadTracks, canMakeTracksPrivate, userDisplayName, useUser } from '@/lib/auth';
import { isFirstSession } from '@/lib/first-sign-in';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useDeleteGeneration } from '../api/delete-generation';
import { useMyGenerations } from '../api/get-my-generations';
import { useVersionsLayout } from '../hooks/use-versions-layout';
import { libraryMessages } from '../messages';
import { filterTracks, type LibraryFilters, libraryCounts, noFilters } from '../utils/filter-tracks';
import { groupVersions } from '../utils/group-versions';
import { DeleteTrackDialog } from './delete-track-dialog';
import { LibraryFiltersBar } from './library-filters';
import { LibraryTrackCard } from './library-track-card';

export interface MusicLibraryProps {
  /** Create First Track: where a user with no tracks goes to make one. */
  onCreateFirst: () => void;
  /** `h1` when the library is the page, `h2` inside the Create page's tab. */
  headingLevel?: 'h1' | 'h2';
  /**
   * More actions for each track (the studio's menu), given the id of the
   * card's title and what to call with the new track once one is started.
   */
  trackActions?: (track: Track, describedBy: string, onStarted: (made: Track | null) => void) => ReactNode;
}

function Counter({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-white/10 bg-zinc-950/40 p-4 text-center">
      <dt className="text-xs font-medium tracking-wide text-zinc-400 uppercase">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-white tabular-nums">{value}</dd>
    </div>
  );
}

function LibrarySkeleton() {
  return (
    <div className="grid gap-6">
      <span role="status" className="sr-only">
        Loading your library
      </span>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {['total', 'completed', 'public', 'private'].map((key) => (
          <Skeleton key={key} className="h-20 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-10" />
      <div className="grid gap-6 md:grid-cols-2">
        {['a', 'b'].map((key) => (
          <Skeleton key={key} className="h-64 rounded-2xl" />
        ))}
      </div>
    </div>
  );
}

/**
 * My Music Library: a welcome line, the four counters, search and filters,
 * and the owner's tracks with their actions. Visitors get Access Denied.
 */
export function MusicLibrary({
  onCreateFirst,
  headingLevel: Heading = 'h2',
  trackActions,
}: MusicLibraryProps) {
  const headingId = useId();
  const flatSwitchId = useId();
  const [layout, setLayout] = useVersionsLayout();
  const { user, isLoading: userLoading } = useUser();
  const tracks = useMyGenerations(Boolean(user));
  const [filters, setFilters] = useState<LibraryFilters>(noFilters);
  const [deleting, setDeleting] = useState<Track | null>(null);
  const remove = useDeleteGeneration();
  const handleUnauthorized = useUnauthorizedHandler();
  const heading = useRef<HTMLHeadingElement>(null);
  // The level under the library's heading: its empty state and track cards.
  const Subheading = Heading === 'h1' ? 'h2' : 'h3';
  // A track just made in the studio takes focus once its card is shown: the dialog that made it is
  // gone, and so, the first time, is the card it was opened from (it moves into a group of versions).
  const [focusTrack, setFocusTrack] = useState<string | null>(null);

  // A session that ended while the library was open goes through the usual sign-in redirect.
  const { error } = tracks;
  useEffect(() => {
    if (error) handleUnauthorized(error);
  }, [error, handleUnauthorized]);

  // A new track the filters hide (or a start whose track is not known) leaves the reader at the
  // library's heading, once the dialog has let go of focus.
  const shownIds = filterTracks(tracks.data ?? [], filters).map((track) => track.id);
  const focusHidden =
    focusTrack !== null &&
    (focusTrack === '' ||
      (!!tracks.data?.some((t) => t.id === focusTrack) && !shownIds.includes(focusTrack)));
  useEffect(() => {
    if (!focusHidden) return;
    const timer = window.setTimeout(() => {
      heading.current?.focus();
      setFocusTrack(null);
    }, 0);
    return () => window.clearTimeout(timer);
  }, [focusHidden]);

  if (userLoading) return <LibrarySkeleton />;
  if (!user) {
    return (
      <Card className="mx-auto max-w-md p-8 text-center">
        <Heading className="text-2xl font-bold text-white">{libraryMessages.accessDeniedTitle}</Heading>
        <p className="mt-3 text-zinc-300">{libraryMessages.accessDenied}</p>
        <Link to="/auth" className={buttonClasses('primary', 'md', 'mt-6')}>
          Sign In
        </Link>
      </Card>
    );
  }

  const confirmDelete = (track: Track) => {
    remove.mutate(track.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: libraryMessages.deletedTitle });
        // The card and its buttons are gone; the library's heading keeps the reader's place
        // (once the dialog has closed and let go of focus).
        window.setTimeout(() => heading.current?.focus(), 0);
      },
      onError: (failure) => {
        setDeleting(null);
        if (handleUnauthorized(failure)) return;
        toast({
          title: libraryMessages.deleteFailedTitle,
          description: libraryMessages.deleteFailed,
          variant: 'destructive',
        });
      },
    });
  };

  const all = tracks.data ?? [];
  const counts = libraryCounts(all);
  const shown = filterTracks(all, filters);
  const canDownload = canDownloadTracks(user);
  const canMakePrivate = canMakeTracksPrivate(user);
  // Versions are grouped under their first track unless the reader asked for them flat.
  const hasVersions = groupVersions(all, all).some((group) => group.versions.length > 0);
  const groups = layout === 'grouped' && hasVersions ? groupVersions(shown, all) : null;
  const card = (track: Track) => (
    <LibraryTrackCard
      track={track}
      canDownload={canDownload}
      canMakePrivate={canMakePrivate}
      onDelete={setDeleting}
      headingLevel={Subheading}
      actions={
        trackActions
          ? (describedBy) => trackActions(track, describedBy, (made) => setFocusTrack(made?.id ?? ''))
          : undefined
      }
      takeFocus={focusTrack === track.id}
      onFocusTaken={() => setFocusTrack(null)}
    />
  );

  return (
    <section aria-labelledby={headingId} className="grid gap-6">
      <header>
        <Heading
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-bold text-white focus:outline-none sm:text-3xl"
        >
          My Music Library
        </Heading>
        <p className="mt-1 text-zinc-300">
          {isFirstSession(user) ? 'Welcome' : 'Welcome back'}, {userDisplayName(user)}! Here are all the
          tracks you have created.
        </p>
      </header>

      {/* A failed refresh (the list polls while a track generates) keeps the tracks shown, and any title edit open. */}
      {tracks.isPending ? (
        <LibrarySkeleton />
      ) : !tracks.data ? (
        <Card className="p-6 text-center">
          <p role="alert" className="text-zinc-200">
            Your library could not be loaded.
          </p>
          <Button variant="outline" className="mt-4" onClick={() => void tracks.refetch()}>
            Try Again
          </Button>
        </Card>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Counter label="Total Tracks" value={counts.total} />
            <Counter label="Completed" value={counts.completed} />
            <Counter label="Public" value={counts.public} />
            <Counter label="Private" value={counts.private} />
          </dl>

          {all.length === 0 ? (
            <Card className="p-10 text-center">
              <Subheading className="text-xl font-semibold text-white">No tracks yet</Subheading>
              <p className="mt-2 text-zinc-300">Your first AI-generated track is one click away.</p>
              <Button className="mt-6" onClick={onCreateFirst}>
                Create First Track
              </Button>
            </Card>
          ) : (
            <>
              <LibraryFiltersBar filters={filters} onChange={setFilters} />
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p role="status" className="text-sm text-zinc-400">
                  Showing {shown.length} of {all.length} {all.length === 1 ? 'track' : 'tracks'}
                </p>
                {hasVersions ? (
                  <div className="flex items-center gap-2">
                    <Switch
                      id={flatSwitchId}
                      checked={layout === 'flat'}
                      onCheckedChange={(flat) => setLayout(flat ? 'flat' : 'grouped')}
                    />
                    <label htmlFor={flatSwitchId} className="cursor-pointer text-sm text-zinc-200">
                      Show versions flat
                    </label>
                  </div>
                ) : null}
              </div>
              {shown.length === 0 ? (
                <Card className="p-8 text-center">
                  <p className="text-zinc-300">No tracks match your search or filters.</p>
                  <Button variant="outline" className="mt-4" onClick={() => setFilters(noFilters)}>
                    Clear Filters
                  </Button>
                </Card>
              ) : groups ? (
                <ul className="grid gap-6 md:grid-cols-2">
                  {groups.map(({ root, versions, rootShown }) =>
                    versions.length === 0 ? (
                      <li key={root.id}>{card(root)}</li>
                    ) : (
                      <li key={root.id} className="grid gap-4 md:col-span-2">
                        {rootShown ? <div className="grid gap-6 md:grid-cols-2">{card(root)}</div> : null}
                        <div className="grid gap-3 border-l-2 border-violet-500/40 pl-4">
                          <p
                            id={`${headingId}-versions-${root.id}`}
                            className="text-sm font-medium text-zinc-300"
                          >
                            {versions.length === 1 ? '1 version' : `${versions.length} versions`} of{' '}
                            {trackTitle(root)}
                          </p>
                          <ul
                            aria-labelledby={`${headingId}-versions-${root.id}`}
                            className="grid gap-6 md:grid-cols-2"
                          >
                            {versions.map((version) => (
                              <li key={version.id}>{card(version)}</li>
                            ))}
                          </ul>
                        </div>
                      </li>
                    ),
                  )}
                </ul>
              ) : (
                <ul className="grid gap-6 md:grid-cols-2">
                  {shown.map((track) => (
                    <li key={track.id}>{card(track)}</li>
                  ))}
                </ul>
              )}
            </>
          )}
        </>
      )}

      <DeleteTrackDialog
        track={deleting}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </section>
  );
}
