import { type TrackFamily as Family, isInProgress, type Track } from '@tunesmith/shared/tracks';
import { Link } from 'react-router';
import { editKindName, madeFromPhrase } from '@/components/tracks/track-edit';
import { trackTitle } from '@/components/tracks/track-title';

// At least 24 px tall (WCAG 2.5.8), however short the text.
const linkClasses =
  'inline-flex min-h-6 items-center py-1 font-medium text-violet-300 underline-offset-4 hover:text-violet-200 hover:underline';

type Version = Family['children'][number];

/**
 * What each version is called: its title and its kind, numbered where a kind
 * comes more than once (versions share their parent's title, so the title
 * alone would not tell them apart), oldest first.
 */
export function versionNames(children: readonly Version[]): string[] {
  const totals = new Map<string, number>();
  for (const child of children) totals.set(child.kind, (totals.get(child.kind) ?? 0) + 1);
  const seen = new Map<string, number>();
  return children.map((child) => {
    const n = (seen.get(child.kind) ?? 0) + 1;
    seen.set(child.kind, n);
    const kind = editKindName(child.kind);
    return (totals.get(child.kind) ?? 0) > 1 ? `${kind} ${n}` : kind;
  });
}

/** A version that did not (or not yet) make a track says so, in words and colour. */
function VersionState({ status }: { status: Version['status'] }) {
  if (status === 'failed') {
    return (
      <span className="rounded-full border border-red-400/40 bg-red-500/15 px-2 text-xs text-red-200">
        Failed
      </span>
    );
  }
  if (isInProgress(status)) {
    return (
      <span className="rounded-full border border-sky-400/40 bg-sky-500/15 px-2 text-xs text-sky-200">
        Generating
      </span>
    );
  }
  return null;
}

/**
 * Where a track came from ("Extended from …", a deleted parent named as such)
 * and the versions made from it, as links that say their title, their kind
 * and, for one that failed or is still generating, its state. Nothing for a
 * track with neither.
 */
export function TrackFamily({ track }: { track: Track }) {
  const parent = track.family?.parent ?? null;
  const children = track.family?.children ?? [];
  const kind = track.edit?.kind;
  if (!(parent && kind) && children.length === 0) return null;
  const names = versionNames(children);
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
          <ul aria-labelledby="track-family-children" className="grid gap-1 text-sm">
            {children.map((child, index) => (
              <li key={child.id}>
                <Link to={`/track/${child.id}`} className={`${linkClasses} flex-wrap gap-x-2`}>
                  <span>{trackTitle(child)}</span>{' '}
                  <span className="text-xs font-normal text-zinc-400">({names[index]})</span>{' '}
                  <VersionState status={child.status} />
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
