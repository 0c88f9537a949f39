import { type AdminTrack, adminToasts } from '@tunesmith/shared/admin';
import { trackStatuses } from '@tunesmith/shared/tracks';
import { useEffect, useId, useState } from 'react';
import { AdminPage, EmptyState, LoadFailed, StatCard } from '@/components/admin/admin-page';
import { trackTitle } from '@/components/tracks/track-title';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { fieldClasses, Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { type TrackFilters, useAdminTracks, useDeleteTrack } from '../api';
import { TrackRow } from './track-row';

const SEARCH_DELAY_MS = 300;

/** Music Tracks: every track, private ones too, searched, filtered and paged on the server. */
export function MusicTracks() {
  const id = useId();
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<TrackFilters>({ q: '', status: 'all', visibility: 'all' });
  useEffect(() => {
    const timer = window.setTimeout(() => setFilters((f) => ({ ...f, q: search.trim() })), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search]);
  const tracks = useAdminTracks(filters);
  const remove = useDeleteTrack();
  const [deleting, setDeleting] = useState<AdminTrack | null>(null);
  const rows = tracks.data?.pages.flatMap((page) => page.tracks) ?? [];
  const counts = tracks.data?.pages[0]?.counts;

  const confirmDelete = (track: AdminTrack) =>
    remove.mutate(track.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'Track Deleted', description: `"${trackTitle(track)}" was deleted.` });
      },
      onError: (failure) => {
        setDeleting(null);
        toast({
          title: adminToasts.deleteFailed,
          description: serverMessage(failure, adminToasts.failedDeleteTrack),
          variant: 'destructive',
        });
      },
    });

  return (
    <AdminPage title="Music Tracks">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Tracks" value={counts?.total} />
        <StatCard label="Public Tracks" value={counts?.public} />
        <StatCard label="Gallery Visible" value={counts?.galleryVisible} />
        <StatCard label="Hidden from Gallery" value={counts?.hiddenFromGallery} />
      </div>
      <div className="flex flex-wrap gap-3">
        <div className="min-w-60 flex-1">
          <label htmlFor={`${id}-q`} className="sr-only">
            Search tracks by title or tags
          </label>
          <Input
            id={`${id}-q`}
            type="search"
            placeholder="Search by title or tags..."
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-status`} className="sr-only">
            Status
          </label>
          <select
            id={`${id}-status`}
            className={`${fieldClasses} h-10`}
            value={filters.status}
            onChange={(event) =>
              setFilters((f) => ({ ...f, status: event.target.value as TrackFilters['status'] }))
            }
          >
            <option value="all">All statuses</option>
            {trackStatuses.map((status) => (
              <option key={status} value={status}>
                {status.charAt(0).toUpperCase() + status.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-visibility`} className="sr-only">
            Visibility
          </label>
          <select
            id={`${id}-visibility`}
            className={`${fieldClasses} h-10`}
            value={filters.visibility}
            onChange={(event) =>
              setFilters((f) => ({ ...f, visibility: event.target.value as TrackFilters['visibility'] }))
            }
          >
            <option value="all">All visibility</option>
            <option value="public">Public</option>
            <option value="private">Private</option>
          </select>
        </div>
      </div>
      {tracks.isError ? <LoadFailed what="tracks" onRetry={() => void tracks.refetch()} /> : null}
      {tracks.isLoading ? <Spinner label="Loading tracks" /> : null}
      {tracks.isSuccess && rows.length === 0 ? <EmptyState>No tracks found</EmptyState> : null}
      <div className="grid gap-4">
        {rows.map((track) => (
          <TrackRow key={track.id} track={track} onDelete={() => setDeleting(track)} />
        ))}
      </div>
      {tracks.hasNextPage ? (
        <div className="flex justify-center">
          <Button
            variant="outline"
            onClick={() => void tracks.fetchNextPage()}
            disabled={tracks.isFetchingNextPage}
          >
            {tracks.isFetchingNextPage ? 'Loading...' : 'Load More'}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this track?"
        description={
          deleting ? `"${trackTitle(deleting)}" and its audio will be deleted permanently.` : undefined
        }
        confirmLabel="Delete Track"
        destructive
        pending={remove.isPending}
        onConfirm={() => deleting && confirmDelete(deleting)}
      />
    </AdminPage>
  );
}
