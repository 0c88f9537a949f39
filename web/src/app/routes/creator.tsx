import { useParams } from 'react-router';
import { CreatorPage } from '@/features/creators/components/creator-page';
import NotFoundRoute from './not-found';

/**
 * `/@handle`. React Router matches a whole segment only, so this is `/:at` and a segment without the
 * `@` is the not-found page it would have been.
 */
export default function CreatorRoute() {
  const at = useParams().at ?? '';
  if (!at.startsWith('@') || at.length < 2) return <NotFoundRoute />;
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
      <CreatorPage key={at} handle={at.slice(1)} />
    </div>
  );
}
