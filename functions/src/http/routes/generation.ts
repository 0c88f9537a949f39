import {
  audioToMusicSchema,
  extendSchemaFor,
  lyricsRequestSchema,
  repaintSchemaFor,
  type StudioStarted,
  textToMusicSchema,
  variationSchema,
} from '@tunesmith/shared/generations';
import { DEFAULT_MODEL_ID } from '@tunesmith/shared/models';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type LazyMetrics, metrics } from '../../adapters/lazy-metrics';
import { metricNames } from '../../adapters/metric-names';
import type { User } from '../../domain/accounts/user';
import { DomainError } from '../../domain/errors';
import {
  createFromTrack,
  createGeneration,
  type StartDeps,
  type StudioInput,
} from '../../domain/generations/generation-service';
import { type MusicProvider, MusicProviderError } from '../../domain/generations/music-provider';
import type { GenerationDeps, WorkflowStarter } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import type { Generation } from '../../domain/tracks/track';
import { checkUploadedAudio, type UploadStore } from '../../domain/uploads/uploads';
import { type AudioLinker, playableTrack } from '../audio-links';
import type { GroupHandlers, RouteHandler } from '../group-handler';
import { logger } from '../logger';
import { readJson } from '../request';
import { json } from '../responses';

/** The spec's lyrics-helper error (its toast text), sent when the provider cannot write lyrics. */
export const LYRICS_FAILED = 'Failed to generate lyrics. Please try again.';

export interface GenerationRouteDeps {
  generations: GenerationDeps;
  plans: PlanRepository;
  /** The site's public origin (PUBLIC_ORIGIN): a new track's license links to its terms there. */
  siteOrigin: string;
  /** Launches the workflow of a started generation. */
  workflow: WorkflowStarter;
  /** The uploads bucket, to check an upload before a remix uses it. */
  uploads: UploadStore;
  /** The lyrics helper. */
  provider: Pick<MusicProvider, 'writeLyrics'>;
  /** Presigns stored audio for the owner's player (the studio calls answer with the new track). */
  audioLinks: AudioLinker;
  /** Where `GenerationsStarted` is counted (default: CloudWatch through Powertools). */
  metrics?: Pick<LazyMetrics, 'count'>;
  /** The models' settings (decision 051). */
  modelSettings: StartDeps['modelSettings'];
}

/** Starting generations (text, audio; variation, extend and repaint of a track) and the lyrics helper. */
export function generationRoutes(deps: GenerationRouteDeps): GroupHandlers {
  const planOf = async (user: User) =>
    user.subscriptionPlanId ? deps.plans.get(user.subscriptionPlanId) : undefined;
  const services = {
    ...deps.generations,
    workflow: deps.workflow,
    siteOrigin: deps.siteOrigin,
    plans: deps.plans,
    modelSettings: deps.modelSettings,
  };
  const started = () => (deps.metrics ?? metrics).count(metricNames.generationsStarted);

  /** A studio call: a new generation from the owner's track `{id}`, answered with the new track. */
  const fromTrack =
    (
      read: (event: APIGatewayProxyEventV2, parent: Pick<Generation, 'duration'>) => StudioInput,
    ): RouteHandler =>
    async (event, ctx) => {
      const user = ctx.user as User;
      // The body is read once the track proves to be the caller's: anyone else's is a 404 whatever they send.
      const generation = await createFromTrack(
        services,
        user,
        await planOf(user),
        ctx.params.id ?? '',
        (parent) => read(event, parent),
      );
      started();
      const body: StudioStarted = {
        generationId: generation.id,
        track: await playableTrack(generation, deps.audioLinks),
        model: generation.model ?? DEFAULT_MODEL_ID,
      };
      return json(201, body);
    };

  return {
    generateTextToMusic: async (event, ctx) => {
      const input = readJson(event, textToMusicSchema);
      const user = ctx.user as User;
      const generation = await createGeneration(services, user, await planOf(user), {
        type: 'text-to-music',
        ...input,
      });
      started();
      return json(201, { generationId: generation.id });
    },

    generateAudioToMusic: async (event, ctx) => {
      const input = readJson(event, audioToMusicSchema);
      const user = ctx.user as User;
      // Only the user's own upload, and only once it proved to be audio within the limits.
      const upload = await checkUploadedAudio(deps.uploads, user.id, input.inputAudioUrl);
      const generation = await createGeneration(services, user, await planOf(user), {
        type: 'audio-to-music',
        ...input,
        uploadSha256: upload.sha256,
      });
      started();
      return json(201, { generationId: generation.id });
    },

    createVariation: fromTrack((event) => ({ kind: 'variation', ...readJson(event, variationSchema) })),
    // Checked against the track's own limits, so a refusal names the range its dialog offered.
    extendGeneration: fromTrack((event, parent) => ({
      kind: 'extend',
      ...readJson(event, extendSchemaFor(parent.duration)),
    })),
    repaintGeneration: fromTrack((event, parent) => ({
      kind: 'repaint',
      ...readJson(event, repaintSchemaFor(parent.duration ?? 0)),
    })),

    generateLyrics: async (event) => {
      const { prompt, duration } = readJson(event, lyricsRequestSchema);
      try {
        return json(200, { lyrics: await deps.provider.writeLyrics({ prompt, duration }) });
      } catch (error) {
        if (!(error instanceof MusicProviderError)) throw error;
        logger.warn('lyrics failed', { reason: error.reason, status: error.status, error });
        throw new DomainError('unavailable', LYRICS_FAILED);
      }
    },
  };
}
