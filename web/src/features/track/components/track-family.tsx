import type { Track } from '@tunesmith/shared/tracks';
import { Link } from 'react-router';
import { editKindName, madeFromPhrase } from '@/components/tracks/track-edit';
import { trackTitle } from '@/components/tracks/track-title';

const linkClasses = 'font-medium text-violet-300 underline-offset-4 hover:text-violet-200 hover:underline';

/**
 * Where a track came from ("Extended from …", a deleted parent named as such)
 * and the versions made from it, as links with their kind. Nothing for a track
 * with neither.
 */
export function TrackFamily({ track }: { track: Track }) {
  const parent = track.family?.parent ?? null;
  const children = track.family?.children ?? [];
  const kind = track.edit?.kind;
  if (!(parent && kind) && children.length === 0) return null;
  return (
    <section aria-labelledby="track-family" className="grid gap-3">
      <h2 id="track-family" className="text-lg font-semibold text-white">
        Versions
      </h2>
      {parent && kind ? (
        <p className="text-sm text-zinc-200">
          {madeFromPhrase(kind)}{' '}
          {parent.deleted ? (
            <span className="text-zinc-400">a deleted track</span>
          ) : (
            <Link to={`/track/${parent.id}`} className={linkClasses}>
              {trackTitle(parent)}
            </Link>
          )}
        </p>
      ) : null}
      {children.length > 0 ? (
        <div className="grid gap-2">
          <p id="track-family-children" className="text-sm text-zinc-400">
            Made from this track
          </p>
          <ul aria-labelledby="track-family-children" className="grid gap-1.5 text-sm">
            {children.map((child) => (
              <li key={child.id} className="flex flex-wrap items-baseline gap-2">
                <Link to={`/track/${child.id}`} className={linkClasses}>
                  {trackTitle(child)}
                </Link>
                <span className="text-xs text-zinc-400">{editKindName(child.kind)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
