import type { PlaylistCard } from '@tunesmith/shared/community';
import type { CreatorRef } from '@tunesmith/shared/tracks';

/**
 * The public names of track owners (decision 059): only users with a public profile that is not
 * hidden are in the answer; everyone else stays anonymous. One batched read per page of tracks.
 */
export interface CreatorNames {
  names(userIds: readonly string[]): Promise<Map<string, CreatorRef>>;
}

/**
 * A user's public playlists as others see them (decisions 058 and 062), for their creator page:
 * read without their tracks, so the page costs the same whatever the playlists hold.
 */
export interface PublicPlaylists {
  ofOwner(userId: string, owner: CreatorRef): Promise<PlaylistCard[]>;
}
