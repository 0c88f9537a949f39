import type { Track } from '@tunesmith/shared/tracks';

/** A track with the versions made from it (and from them), as the library groups them. */
export interface VersionGroup {
  /** The first track of the chain that is still in the library. */
  root: Track;
  /** Every other track of the chain that is shown, in the library's order (newest first). */
  versions: Track[];
  /** Whether the root itself is among the shown tracks (the filters may hide it). */
  rootShown: boolean;
}

/**
 * The root of each track: the first ancestor still in `library`. A track whose
 * parent is gone (deleted) is its own root.
 */
export function rootsOf(library: readonly Track[]): Map<string, string> {
  const byId = new Map(library.map((track) => [track.id, track]));
  const roots = new Map<string, string>();
  for (const track of library) {
    let current = track;
    const seen = new Set<string>([current.id]);
    while (current.parentId) {
      const parent = byId.get(current.parentId);
      // A parent that is gone ends the chain here; in a loop (bad data) each track stands alone.
      if (!parent) break;
      if (seen.has(parent.id)) {
        current = track;
        break;
      }
      seen.add(parent.id);
      current = parent;
    }
    roots.set(track.id, current.id);
  }
  return roots;
}

/**
 * The shown tracks grouped under their roots (found in the whole library, so
 * a filter that hides a root still groups its versions under it). A group
 * takes the place of its newest shown track; a root that the filters hide is
 * named but not counted among the shown.
 */
export function groupVersions(shown: readonly Track[], library: readonly Track[]): VersionGroup[] {
  const roots = rootsOf(library);
  const byId = new Map(library.map((track) => [track.id, track]));
  const shownIds = new Set(shown.map((track) => track.id));
  const groups = new Map<string, VersionGroup>();
  for (const track of shown) {
    const rootId = roots.get(track.id) ?? track.id;
    let group = groups.get(rootId);
    if (!group) {
      const root = byId.get(rootId) ?? track;
      group = { root, versions: [], rootShown: shownIds.has(root.id) };
      groups.set(rootId, group);
    }
    if (track.id !== rootId) group.versions.push(track);
  }
  return [...groups.values()];
}
