import { useCallback } from 'react';
import { Link } from 'react-router';
import type { TrackMenu } from '@/components/tracks/community-track-card';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { isNotFoundError } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { getCreator, useCreator } from '../api/get-creator';
import { useMorePages } from '../hooks/use-more-pages';
import { FollowButton } from './follow-button';
import { PagedTracks } from './paged-tracks';

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** `/@handle`: a creator's public tracks and playlists, and following them. */
export function CreatorPage({ handle, trackMenu }: { handle: string; trackMenu?: TrackMenu | undefined }) {
  const creator = useCreator(handle);
  const { user } = useUser();
  const fetchPage = useCallback((cursor: string) => getCreator(handle, cursor), [handle]);
  const pages = useMorePages(creator.data, fetchPage);
  if (creator.isPending)
    return (
      <div className="grid min-h-[40vh] place-items-center">
        <Spinner label="Loading the creator" className="[&>span:first-child]:size-8" />
      </div>
    );
  if (creator.isError)
    return (
      <Card className="mx-auto max-w-xl p-8 text-center">
        <title>{pageTitle('Creator Not Found')}</title>
        <h1 className="text-2xl font-bold text-white">
          {isNotFoundError(creator.error) ? 'Creator not found' : 'This page could not be loaded'}
        </h1>
        <p className="mt-3 text-zinc-300">
          {isNotFoundError(creator.error)
            ? `No one goes by @${handle} here, or their profile is private.`
            : 'Please try again in a moment.'}
        </p>
        <Link to="/" className={buttonClasses('primary', 'md', 'mt-6')}>
          Go Home
        </Link>
      </Card>
    );
  const first = creator.data;
  const tracks = pages.tracks;
  // A signed-in viewer learns whether they follow the creator, unless they are the creator.
  const isMe = Boolean(user) && first.followedByMe === undefined;
  return (
    <div className="grid gap-10">
      <title>{pageTitle(`${first.displayName} (@${first.handle})`)}</title>
      <header className="grid gap-3">
        <h1 className="text-3xl font-bold text-white sm:text-4xl">{first.displayName}</h1>
        <p className="text-zinc-400">@{first.handle}</p>
        {first.bio ? <p className="max-w-2xl whitespace-pre-line text-zinc-200">{first.bio}</p> : null}
        <div className="flex flex-wrap items-center gap-4 text-sm text-zinc-300">
          <span>{count(first.followers, 'follower', 'followers')}</span>
          <span>{`${first.following.toLocaleString()} following`}</span>
          {user && !isMe ? (
            <FollowButton handle={first.handle} following={first.followedByMe === true} />
          ) : null}
          {isMe ? (
            <Link to="/profile" className={buttonClasses('outline', 'sm')}>
              Edit your profile
            </Link>
          ) : null}
          {!user ? (
            <Link to="/auth" className={buttonClasses('primary', 'sm')}>
              Sign in to follow
            </Link>
          ) : null}
        </div>
      </header>

      <section aria-labelledby="creator-tracks" className="grid gap-4">
        <h2 id="creator-tracks" className="text-2xl font-semibold text-white">
          Tracks
        </h2>
        {tracks.length === 0 ? (
          <p className="text-zinc-400">No public tracks yet.</p>
        ) : (
          <PagedTracks pages={pages} trackMenu={trackMenu} />
        )}
      </section>

      {first.playlists.length ? (
        <section aria-labelledby="creator-playlists" className="grid gap-4">
          <h2 id="creator-playlists" className="text-2xl font-semibold text-white">
            Playlists
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2">
            {first.playlists.map((playlist) => (
              <li key={playlist.id}>
                <Card className="h-full p-4">
                  <Link
                    to={`/playlist/${playlist.id}`}
                    className="font-semibold text-violet-200 hover:underline"
                  >
                    {playlist.title}
                  </Link>
                  {playlist.description ? (
                    <p className="mt-1 line-clamp-2 text-sm text-zinc-400">{playlist.description}</p>
                  ) : null}
                </Card>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
