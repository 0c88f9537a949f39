import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as communityCalls from '@tunesmith/shared/calls/community';
import type { LikeState } from '@tunesmith/shared/community';
import type { Track } from '@tunesmith/shared/tracks';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { apiRequest } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

/** The lists that show `likedByMe` and counts: asked again once a like has changed. */
export const LIKED_QUERY_KEY = ['my-likes'] as const;

export function setLike(id: string, liked: boolean): Promise<LikeState> {
  return apiRequest<LikeState>(liked ? communityCalls.likeTrack : communityCalls.unlikeTrack, {
    params: { id },
  });
}

/**
 * Like and unlike a track: a toggle (`aria-pressed`) with its count. It changes at once and goes
 * back if the server refuses. A visitor is asked to sign in first.
 */
export function LikeButton({
  track,
  title,
  className,
}: {
  track: Pick<Track, 'id' | 'likes' | 'likedByMe'>;
  /** The track's title, for the button's accessible name. */
  title: string;
  className?: string;
}) {
  const { user } = useUser();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LikeState>({ liked: track.likedByMe ?? false, likes: track.likes });
  const [asking, setAsking] = useState(false);
  // A fresher answer from the server (a list asked again) takes the place of what was shown.
  useEffect(
    () => setState({ liked: track.likedByMe ?? false, likes: track.likes }),
    [track.likedByMe, track.likes],
  );

  const mutation = useMutation({
    mutationFn: (liked: boolean) => setLike(track.id, liked),
    onMutate: (liked) => {
      const before = state;
      setState({ liked, likes: Math.max(0, before.likes + (liked ? 1 : -1)) });
      return { before };
    },
    onError: (_error, _liked, context) => {
      if (context) setState(context.before);
      toast({ title: 'Could not save your like', description: 'Please try again.', variant: 'destructive' });
    },
    onSuccess: (answer) => {
      setState(answer);
      void queryClient.invalidateQueries({ queryKey: LIKED_QUERY_KEY });
    },
  });

  const label = `${state.liked ? 'Unlike' : 'Like'} ${title}`;
  return (
    <>
      <button
        type="button"
        aria-pressed={user ? state.liked : undefined}
        title={label}
        disabled={mutation.isPending}
        onClick={() => (user ? mutation.mutate(!state.liked) : setAsking(true))}
        className={cn(
          'inline-flex min-h-9 items-center gap-1.5 rounded-full px-2.5 text-sm text-zinc-200 transition hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-fuchsia-400 disabled:opacity-70',
          className,
        )}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className={cn(
            'size-5',
            state.liked ? 'fill-fuchsia-400 stroke-fuchsia-400' : 'fill-none stroke-current',
          )}
          strokeWidth={2}
        >
          <path d="M12 21s-7.5-4.6-9.5-9.2C1.2 8.6 3.2 5 6.6 5c2 0 3.6 1.1 4.4 2.6h2C13.8 6.1 15.4 5 17.4 5c3.4 0 5.4 3.6 4.1 6.8C19.5 16.4 12 21 12 21z" />
        </svg>
        {/* Named "Like <title>, <n> likes": the visible count is part of the name, the pressed state says whether. */}
        <span>
          <span className="sr-only">Like {title}, </span>
          {state.likes}
          <span className="sr-only"> {state.likes === 1 ? 'like' : 'likes'}</span>
        </span>
      </button>
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="Sign in to like tracks"
        description="Your likes are kept in your library's Liked tab."
      >
        <div className="mt-6 flex justify-end gap-3">
          <button type="button" className={buttonClasses('ghost')} onClick={() => setAsking(false)}>
            Not now
          </button>
          <Link to="/auth" className={buttonClasses('primary')}>
            Sign in
          </Link>
        </div>
      </Dialog>
    </>
  );
}
