import { lazySdk } from '../adapters/lazy-sdk';
import type { AudioLinker } from '../http/audio-links';

/** Play links (the signing key, Secrets Manager, CloudFront's signer) load with the first answer that has audio. */
const playLinks = lazySdk(
  () => Promise.all([import('./audio-wiring'), import('../adapters/s3/links')]),
  ([{ audioLinks }, { s3AudioLinker }]) => s3AudioLinker(audioLinks()),
);

/**
 * Signs plays of stored audio, loading what signs them on first use: the community group's pages
 * answer many calls without audio (likes, follows, reports), so its cold start carries none of it.
 */
export const lazyAudioLinks: AudioLinker = async (stored) =>
  stored ? (await playLinks()).client(stored) : null;
