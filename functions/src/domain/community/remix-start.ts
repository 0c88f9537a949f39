import { type RemixRequest, remixMessages } from '@tunesmith/shared/community';
import type { User } from '../accounts/user';
import { forbidden } from '../errors';
import { createGeneration, type StartDeps } from '../generations/generation-service';
import type { WorkflowStarter } from '../generations/ports';
import type { Plan } from '../plans/plan';
import { type Generation, isGalleryVisible } from '../tracks/track';
import type { CreatorNames } from './ports';
import { ANONYMOUS_CREATOR, type RemixIndex, trackNotFound, visibleTo } from './remixes';

/**
 * Starts a remix of another user's track: a restyle of its audio, paid from the remixer's quota
 * through the same start as any generation (plan, models, quota, workflow). A track the caller
 * may not see is not found; their own track, or one that is not listed or not remixable, is
 * refused with the reason. The remix records its source as it is now: id, owner and the hash of
 * its audio; its provenance names the creator's handle, or "anonymous".
 */
export async function startRemix(
  deps: StartDeps & { workflow: WorkflowStarter; remixes: RemixIndex; creators: CreatorNames },
  user: Pick<User, 'id' | 'planStatus' | 'planEndDate'>,
  plan: Plan | undefined,
  sourceId: string,
  /** The request, or how to read it: read only once the source may be remixed by this user. */
  request: RemixRequest | (() => RemixRequest),
): Promise<Generation> {
  const source = await deps.generations.get(sourceId);
  if (!source || !visibleTo(source, user)) throw trackNotFound();
  if (source.userId === user.id) throw forbidden(remixMessages.ownTrack);
  if (!isGalleryVisible(source) || !source.remixable || !source.audioUrl)
    throw forbidden(remixMessages.cannotRemix);
  const input = typeof request === 'function' ? request() : request;
  const names = await deps.creators.names([source.userId]);
  const remix = await createGeneration(deps, user, plan, {
    type: 'audio-to-music',
    ...input,
    remixOf: {
      source: { trackId: source.id, userId: source.userId, sha256: source.audioSha256 ?? null },
      creator: names.get(source.userId)?.handle ?? ANONYMOUS_CREATOR,
    },
  });
  await deps.remixes.add(source.id, remix);
  return remix;
}
