import type { CreatorRef } from '@tunesmith/shared/tracks';
import { Link } from 'react-router';

/** "by Name", linking to the creator's page; nothing for an anonymous track (decision 059). */
export function CreatorLink({
  creator,
  className,
}: {
  creator: CreatorRef | null | undefined;
  className?: string;
}) {
  if (!creator) return null;
  return (
    <p className={className ?? 'text-sm text-zinc-400'}>
      by{' '}
      <Link to={`/@${creator.handle}`} className="text-violet-300 underline-offset-2 hover:underline">
        {creator.displayName}
      </Link>
    </p>
  );
}
