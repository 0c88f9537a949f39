/**
 * Downloads: the server, not the browser, decides who may save a track's audio.
 * Only the owner, only on a paid plan (spec 1: the free plan cannot download),
 * and only once the track is completed with its audio stored and its download prepared.
 */
import { generationMessages } from '@tunesmith/shared/generation-values';
import { UNTITLED_TRACK } from '@tunesmith/shared/tracks';
import type { User } from '../accounts/user';
import { conflict, forbidden, notFound } from '../errors';
import type { Plan } from '../plans/plan';
import { isDownloadReady } from '../tracks/track';
import { entitlementsFor } from './entitlements';
import type { GenerationDeps } from './ports';

export const downloadMessages = {
  needsPaidPlan: 'Downloads need a paid plan. Upgrade to download your tracks.',
  notReady: 'Track is not ready for download.',
  /** Completed and playing, while its WAV is marked, signed and hashed: moments, then it is there. */
  preparing: 'The download is being prepared',
} as const;

/** Longest file name stem we hand out (titles are at most 100 characters anyway). */
const MAX_STEM = 100;

/**
 * The saved file's name: "{title or Untitled Track}.wav", with the characters
 * file systems refuse or treat specially replaced, so it saves on any system.
 */
export function downloadFilename(title: string | null): string {
  const stem = (title ?? '')
    // Path separators, characters Windows forbids, and control characters.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed here.
    .replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    // Leading dots hide a file or climb folders; trailing dots and spaces vanish on Windows.
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, MAX_STEM)
    .trim();
  return `${stem || UNTITLED_TRACK}.wav`;
}

/**
 * What the owner may download: the stored audio and the name to save it as
 * (the title, or `name` when the caller asks for one: the Create page saves
 * `ai-music-{timestamp}.wav`). Anyone but the owner gets not found (a private
 * track does not leak), the free plan gets forbidden, a track without
 * finished audio gets conflict.
 */
export async function trackDownload(
  deps: Pick<GenerationDeps, 'generations' | 'clock'>,
  user: Pick<User, 'id' | 'planStatus' | 'planEndDate'>,
  plan: Plan | undefined,
  id: string,
  name?: string,
): Promise<{ audioUrl: string; filename: string }> {
  const generation = await deps.generations.get(id);
  if (!generation || generation.userId !== user.id) throw notFound(generationMessages.trackNotFound);
  if (!entitlementsFor(user, plan, deps.clock.now()).canDownload) {
    throw forbidden(downloadMessages.needsPaidPlan);
  }
  if (generation.status !== 'completed' || !generation.audioUrl) throw conflict(downloadMessages.notReady);
  if (!isDownloadReady(generation)) throw conflict(downloadMessages.preparing);
  return { audioUrl: generation.audioUrl, filename: downloadFilename(name?.trim() || generation.title) };
}
