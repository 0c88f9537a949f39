import { Suspense } from 'react';
import { Link, type Params, useParams } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { playlistQueryOptions, usePlaylist } from '@/features/playlists/api/playlists';
import { PlaylistPlayer } from '@/features/playlists/components/playlist-player';
import { playlistText } from '@/features/playlists/messages';
import { isNotFoundError } from '@/lib/api-client';
import { pageTitle } from '@/lib/page-title';
import { usePageData } from '@/lib/use-page-data';

/** What the page waits for: a shared link's first load asks for it beside the page's code. */
export const pageData = ({ id }: Params) => (id ? [playlistQueryOptions(id)] : []);

function PlaylistSkeleton() {
  return (
    <div aria-busy="true" className="grid gap-6">
      <span role="status" className="sr-only">
        Loading playlist
      </span>
      <div aria-hidden="true" className="grid gap-3">
        <Skeleton className="h-10 w-2/3" />
        <Skeleton className="h-5 w-1/3" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    </div>
  );
}

function PlaylistPage({ id }: { id: string }) {
  usePageData(playlistQueryOptions(id));
  const playlist = usePlaylist(id);
  const { data } = playlist;
  if (playlist.isPending) return <PlaylistSkeleton />;
  if (!data) {
    if (isNotFoundError(playlist.error)) {
      return (
        <Card className="mx-auto max-w-xl p-8 text-center">
          <title>{pageTitle(playlistText.notFoundTitle)}</title>
          <h1 className="text-3xl font-bold text-white">{playlistText.notFoundTitle}</h1>
          <p className="mt-4 text-zinc-300">{playlistText.notFound}</p>
          <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
            Go Home
          </Link>
        </Card>
      );
    }
    return (
      <Card className="mx-auto max-w-xl p-8 text-center">
        <title>{pageTitle('Playlist')}</title>
        <h1 className="text-2xl font-bold text-white">This playlist could not be loaded</h1>
        <p className="mt-3 text-zinc-300">Please check your connection and try again.</p>
        <Button className="mt-6" onClick={() => void playlist.refetch()}>
          Try Again
        </Button>
      </Card>
    );
  }
  const count = `${data.trackCount} ${data.trackCount === 1 ? 'track' : 'tracks'}`;
  return (
    <article className="grid gap-8">
      <title>{pageTitle(data.title)}</title>
      <header className="grid gap-2">
        <p className="text-sm font-medium tracking-wide text-fuchsia-300 uppercase">
          {data.visibility === 'private' ? 'Private playlist' : 'Playlist'}
        </p>
        <h1 className="text-3xl font-bold break-words text-white sm:text-4xl">{data.title}</h1>
        <p className="text-sm text-zinc-300">
          {data.owner ? (
            <>
              By{' '}
              <Link to={`/@${data.owner.handle}`} className="font-medium text-white hover:underline">
                {data.owner.displayName}
              </Link>{' '}
              ·{' '}
            </>
          ) : null}
          {count}
        </p>
        {data.description ? (
          <p className="whitespace-pre-line break-words text-zinc-200">{data.description}</p>
        ) : null}
        {data.ownedByMe ? (
          <Link
            to="/library?tab=playlists"
            className="text-sm text-violet-300 underline-offset-4 hover:underline"
          >
            Edit in your library
          </Link>
        ) : null}
      </header>
      <PlaylistPlayer playlist={data} />
    </article>
  );
}

/** `/playlist/{id}`: a playlist's tracks played through in order. */
export default function PlaylistRoute() {
  const { id = '' } = useParams();
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <Suspense key={id} fallback={<PlaylistSkeleton />}>
        <PlaylistPage id={id} />
      </Suspense>
    </div>
  );
}
