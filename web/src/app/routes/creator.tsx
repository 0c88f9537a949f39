import { useLocation } from 'react-router';
import { CreatorPage } from '@/features/creators/components/creator-page';
import { useTrackMenu } from '../track-menu';
import { FollowingPage } from './following';

const handleIn = (pathname: string) => {
  try {
    return decodeURIComponent(pathname.replace(/^\/@/, '').replace(/\/$/, ''));
  } catch {
    return pathname.slice(2);
  }
};

/** `/@handle` and `/following`, loaded by the catch-all route (`not-found.tsx`). */
export default function CreatorRoute() {
  const { pathname } = useLocation();
  const trackMenu = useTrackMenu();
  if (!pathname.startsWith('/@')) return <FollowingPage />;
  const handle = handleIn(pathname);
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
      <CreatorPage key={handle} handle={handle} trackMenu={trackMenu} />
    </div>
  );
}
