import { randomUUID } from 'node:crypto';
import type { GenerationStore } from '../../src/domain/generations/ports';
import type { Generation } from '../../src/domain/tracks/track';
import { type storage, wavBytes } from './storage';

/**
 * A finished track of `userId` written straight to the table (30 s, public,
 * with a second of stored audio), for calls that never reach the provider.
 */
export async function storedTrack(
  deps: {
    generations: Pick<GenerationStore, 'create'>;
    files: Pick<ReturnType<typeof storage>, 'putTrackAudio'>;
  },
  userId: string,
  over: Partial<Generation> = {},
): Promise<Generation> {
  const id = over.id ?? randomUUID();
  const at = new Date().toISOString();
  const generation: Generation = {
    id,
    userId,
    type: 'text-to-music',
    title: 'Stored',
    tags: 'ambient',
    lyrics: '',
    duration: 30,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: await deps.files.putTrackAudio(userId, id, wavBytes({ seconds: 1 })),
    seed: 1,
    falRequestId: null,
    createdAt: at,
    updatedAt: at,
    ...over,
  };
  await deps.generations.create(generation);
  return generation;
}
