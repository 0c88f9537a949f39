import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { FeedList } from '@/features/creators/components/feed-list';
import { userQueryOptions, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { usePageData } from '@/lib/use-page-data';
import { useTrackMenu } from '../track-menu';

/** `/following`: the feed of the creators the user follows (in the creator page's chunk, `creator.tsx`). */
export function FollowingPage() {
  usePageData(userQueryOptions());
  const { user, isLoading } = useUser();
  const trackMenu = useTrackMenu();
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
      <title>{pageTitle('Following')}</title>
      <h1 className="mb-8 text-3xl font-bold text-white sm:text-4xl">Following</h1>
      {isLoading ? (
        <Spinner label="Loading" />
      ) : user ? (
        <FeedList trackMenu={trackMenu} />
      ) : (
        <Card className="mx-auto max-w-md p-8 text-center">
          <p className="text-zinc-300">Sign in to see new tracks from the creators you follow.</p>
          <Link to="/auth" className={buttonClasses('primary', 'md', 'mt-6')}>
            Sign In
          </Link>
        </Card>
      )}
    </div>
  );
}
