import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { LazyPublicProfileSection } from '@/features/creators/lazy-public-profile';
import { LazyDevelopersSection } from '@/features/developers/lazy-developers';
import { ProfileSettings } from '@/features/profile/components/profile-settings';
import { userQueryOptions, useUser } from '@/lib/auth';
import { pageTitle } from '@/lib/page-title';
import { usePageData } from '@/lib/use-page-data';

/** Shows once the auth state (which names the plan and what it allows) is in. */
export default function ProfileRoute() {
  usePageData(userQueryOptions());
  const { user, isLoading } = useUser();
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <title>{pageTitle('Account Settings')}</title>
      {isLoading ? (
        <div className="grid min-h-[40vh] place-items-center">
          <Spinner label="Loading your profile" className="[&>span:first-child]:size-8" />
        </div>
      ) : user ? (
        <>
          <header className="mb-8">
            <h1 className="text-3xl font-bold text-white sm:text-4xl">Account Settings</h1>
            <p className="mt-2 text-zinc-300">Manage your profile, subscription and security.</p>
            <p className="mt-1 text-sm text-zinc-400">
              Making music from your own code?{' '}
              <Link to="/developers" className="text-violet-300 underline hover:text-violet-200">
                Read the API reference
              </Link>
              .
            </p>
          </header>
          <ProfileSettings user={user} />
          <LazyPublicProfileSection />
          <LazyDevelopersSection />
        </>
      ) : (
        <Card className="mx-auto max-w-md p-8 text-center">
          <h1 className="text-2xl font-bold text-white">Account Settings</h1>
          <p className="mt-3 text-zinc-300">Please sign in to access your profile</p>
          <Link to="/auth" className={buttonClasses('primary', 'md', 'mt-6')}>
            Sign In
          </Link>
        </Card>
      )}
    </div>
  );
}
