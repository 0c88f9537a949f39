import {
  type V1Track,
  v1ListQuerySchema,
  type v1TrackStartedSchema,
  v1UploadSchema,
} from '@tunesmith/shared/api-v1-schemas';
import {
  audioToMusicSchema,
  extendSchemaFor,
  repaintSchemaFor,
  textToMusicSchema,
  variationSchema,
} from '@tunesmith/shared/generations';
import { reserveUploadSchema } from '@tunesmith/shared/uploads';
import type * as z from 'zod/mini';
import { type LazyMetrics, metrics } from '../../adapters/lazy-metrics';
import { metricNames } from '../../adapters/metric-names';
import type { RateLimiter } from '../../domain/accounts/ports';
import type { User } from '../../domain/accounts/user';
import type { IdempotencyStore } from '../../domain/developers/idempotency';
import { listOwnTracks, takeInUpload } from '../../domain/developers/v1-service';
import { toV1Track, type V1TrackDeps, v1StatusOf } from '../../domain/developers/v1-track';
import {
  createFromTrack,
  createGeneration,
  getOwn,
  type StartDeps,
  type StudioInput,
} from '../../domain/generations/generation-service';
import type { GenerationDeps, WorkflowStarter } from '../../domain/generations/ports';
import type { PlanRepository } from '../../domain/plans/plan';
import type { Generation } from '../../domain/tracks/track';
import {
  allowUploadReservation,
  keptUploadKey,
  newUploadKey,
  objectPathOf,
  type UploadStore,
} from '../../domain/uploads/uploads';
import type { AudioLinker } from '../audio-links';
import type { GroupHandlers, RouteHandler } from '../group-handler';
import { jsonBody, readJson, readQuery, validate } from '../request';
import { json } from '../responses';
import { idempotentPost } from '../v1-idempotency';

export interface V1RouteDeps {
  generations: GenerationDeps;
  plans: PlanRepository;
  /** The site's public origin (PUBLIC_ORIGIN): licenses and provenance links point there. */
  siteOrigin: string;
  /** Launches the workflow of a started generation. */
  workflow: WorkflowStarter;
  /** The models' settings (decision 051). */
  modelSettings: StartDeps['modelSettings'];
  /** The uploads bucket: taking in and checking an upload before a restyle uses it. */
  uploads: UploadStore;
  /** A short-lived PUT link into the uploads bucket that only takes `contentType` and exactly `size` bytes. */
  uploadLink(key: string, options: { contentType?: string; size?: number }): Promise<string>;
  /** How long an upload link lives, in seconds. */
  uploadLinkSeconds: number;
  /** Counts upload links per user (the app's allowance, shared with it). */
  limiter: RateLimiter;
  /** Presigns stored audio (stream, peaks, stems) for the owner. */
  audioLinks: AudioLinker;
  /** A short-lived link that saves stored audio as `filename` (the WAV download). */
  downloadLink(stored: string, filename: string): Promise<string>;
  lyrics: V1TrackDeps['lyrics'];
  idempotency: IdempotencyStore;
  /** Where `GenerationsStarted` is counted (default: CloudWatch through Powertools). */
  metrics?: Pick<LazyMetrics, 'count'>;
}

type TrackStarted = z.infer<typeof v1TrackStartedSchema>;

/**
 * `/api/v1` (decision 055): the app's own calls for programs, behind an API
 * key (the group handler has checked it and its scope, and `ctx.user` is its
 * owner). The same services, schemas, quota, plans and 404s as the app; every
 * POST is idempotent by its `Idempotency-Key`.
 */
export function v1Routes(deps: V1RouteDeps): GroupHandlers {
  const planOf = async (user: User) =>
    user.subscriptionPlanId ? deps.plans.get(user.subscriptionPlanId) : undefined;
  const services = {
    ...deps.generations,
    workflow: deps.workflow,
    siteOrigin: deps.siteOrigin,
    plans: deps.plans,
    modelSettings: deps.modelSettings,
  };
  const trackDeps: V1TrackDeps = {
    playLink: deps.audioLinks,
    downloadLink: deps.downloadLink,
    lyrics: deps.lyrics,
    siteOrigin: deps.siteOrigin,
    clock: deps.generations.clock,
  };
  const idempotency = { store: deps.idempotency, clock: deps.generations.clock };
  const post = (handler: RouteHandler) => idempotentPost(idempotency, handler);
  const started = (generation: Generation) => {
    (deps.metrics ?? metrics).count(metricNames.generationsStarted);
    const body: TrackStarted = { id: generation.id, status: v1StatusOf(generation.status) };
    return json(201, body);
  };

  /** A new track from the owner's track `{id}`: anyone else's is a 404 whatever the body. */
  const fromTrack = (
    read: (body: unknown, parent: Pick<Generation, 'duration'>) => StudioInput,
  ): RouteHandler =>
    post(async (event, ctx) => {
      const user = ctx.user as User;
      // The body is read once the track proves to be the caller's, as the app's studio calls do.
      const generation = await createFromTrack(
        services,
        user,
        await planOf(user),
        ctx.params.id ?? '',
        (parent) => read(jsonBody(event), parent),
      );
      return started(generation);
    });

  return {
    v1CreateTrack: post(async (event, ctx) => {
      const user = ctx.user as User;
      const body = jsonBody(event);
      const fields =
        body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      if (fields.inputAudio === undefined) {
        // The app's text to music, with its rules and messages.
        const input = validate(textToMusicSchema, body);
        const generation = await createGeneration(services, user, await planOf(user), {
          type: 'text-to-music',
          ...input,
        });
        return started(generation);
      }
      // The app's restyle of an upload: `inputAudio` is what the app calls inputAudioUrl.
      const { inputAudio, ...rest } = fields;
      const input = validate(audioToMusicSchema, { ...rest, inputAudioUrl: inputAudio });
      const upload = await takeInUpload(deps.uploads, user.id, input.inputAudioUrl);
      const generation = await createGeneration(services, user, await planOf(user), {
        type: 'audio-to-music',
        ...input,
        uploadSha256: upload.sha256,
      });
      return started(generation);
    }),

    v1GetTrack: async (_event, ctx) => {
      const user = ctx.user as User;
      const generation = await getOwn(deps.generations, user, ctx.params.id ?? '');
      const body: V1Track = await toV1Track(trackDeps, user, await planOf(user), generation);
      return json(200, body);
    },

    v1ListTracks: async (event, ctx) => {
      const user = ctx.user as User;
      const query = readQuery(event, v1ListQuerySchema);
      const [page, plan] = await Promise.all([listOwnTracks(deps.generations, user, query), planOf(user)]);
      const tracks = await Promise.all(page.tracks.map((g) => toV1Track(trackDeps, user, plan, g)));
      return json(200, { tracks, next: page.next });
    },

    v1CreateUpload: post(async (event, ctx) => {
      const user = ctx.user as User;
      const { filename, type, size } = readJson(event, v1UploadSchema);
      // The app's upload rules and messages (type, size), and its hourly allowance of links.
      const checked = validate(reserveUploadSchema, { filename, contentType: type, size });
      await allowUploadReservation(deps.limiter, user.id);
      const key = newUploadKey(user.id, deps.generations.newId(), checked.filename);
      const expiresAt = new Date(deps.generations.clock.now().getTime() + deps.uploadLinkSeconds * 1000);
      const uploadUrl = await deps.uploadLink(key, { ...(type ? { contentType: type } : {}), size });
      return json(201, {
        uploadUrl,
        method: 'PUT',
        headers: type ? { 'content-type': type } : {},
        // The path the file has once a restyle takes it in.
        inputAudio: objectPathOf(keptUploadKey(key)),
        expiresAt: expiresAt.toISOString(),
      });
    }),

    v1CreateVariation: fromTrack((body) => ({ kind: 'variation', ...validate(variationSchema, body) })),
    // Checked against the track's own limits, so a refusal names the range the app's dialog offers.
    v1ExtendTrack: fromTrack((body, parent) => ({
      kind: 'extend',
      ...validate(extendSchemaFor(parent.duration), body),
    })),
    v1RepaintTrack: fromTrack((body, parent) => ({
      kind: 'repaint',
      ...validate(repaintSchemaFor(parent.duration ?? 0), body),
    })),
  };
}
