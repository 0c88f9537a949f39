import { extendRoom, generationMessages } from '@tunesmith/shared/generation-values';
import type {
  AudioToMusicRequest,
  ExtendRequest,
  RepaintRequest,
  TextToMusicRequest,
  UpdateGenerationRequest,
} from '@tunesmith/shared/generations';
import { musicModel } from '@tunesmith/shared/models';
import type { Loudness, ProvenanceInput } from '@tunesmith/shared/ownership';
import type {
  TrackAnalysis,
  TrackEdit,
  TrackFamily,
  TrackStatus,
  Visibility,
} from '@tunesmith/shared/tracks';
import type { User } from '../accounts/user';
import { DomainError, notFound, validationError } from '../errors';
import {
  checkModelFields,
  chooseModel,
  type ModelContext,
  modelPlanInForce,
  quotaCostOf,
  studioChoice,
} from '../models/model-choice';
import { type ModelSettingsSource, settingsInForce } from '../models/model-settings';
import type { Plan } from '../plans/plan';
import { findFreePlan } from '../plans/plan-service';
import { originOf } from '../tracks/provenance';
import { type Generation, storedTrackAudio } from '../tracks/track';
import { entitlementsFor, isPaidPlan } from './entitlements';
import { tracksOf } from './library';
import type { GenerationDeps, GenerationStore, ProvenanceDeps, WorkflowStarter } from './ports';
import { formatResetDate, quotaResetsAt, quotaWindowStart, usedThisWindow } from './quota-window';

// The library's reads live apart so the generation group's cold start carries none of the starts' code.
export { getOwn, LIBRARY_MAX, listLibrary } from './library';

type WithOptionalTitle<T extends { title?: unknown }> = Omit<T, 'title'> & { title?: string };

/**
 * A parsed request (shared/generations schemas) and its kind. A restyle
 * carries its upload's SHA-256 as taken when the upload arrived (null when
 * it was not hashed).
 */
export type StartGenerationInput =
  | ({ type: 'text-to-music' } & WithOptionalTitle<
      Omit<TextToMusicRequest, 'instrumental' | 'bpm' | 'key'>
    > & {
        instrumental?: boolean;
        bpm?: number;
        key?: string;
      })
  | ({ type: 'audio-to-music' } & WithOptionalTitle<Omit<AudioToMusicRequest, 'inputAudioUrl'>> &
      (
        | { inputAudioUrl: string; uploadSha256?: string | null; remixOf?: undefined }
        | {
            inputAudioUrl?: undefined;
            uploadSha256?: undefined;
            /** A remix (decision 060): another user's track it restyles, and its creator as provenance names them. */
            remixOf: RemixSource;
          }
      ));

/** What a remix records of its source when it starts (decision 060). */
export interface RemixSource {
  source: NonNullable<Generation['remixOf']>;
  /** The source's creator handle, or "anonymous". */
  creator: string;
}

/**
 * What starting a track needs: the generation store and quota, what its
 * provenance records, and the models' settings (decision 051).
 */
export type StartDeps = GenerationDeps &
  ProvenanceDeps & {
    /** The administrator's settings of the models, as stored (defaults when none). */
    modelSettings: Pick<ModelSettingsSource, 'read'>;
  };

/** The settings of the models in force, every plan and the plan whose models the user may use. */
export async function modelContextFor(
  deps: Pick<StartDeps, 'modelSettings' | 'plans'>,
  user: Subscriber,
  plan: Plan | undefined,
  now: Date,
): Promise<ModelContext> {
  const [stored, plans] = await Promise.all([deps.modelSettings.read(), deps.plans.listBySortOrder()]);
  return {
    settings: settingsInForce(stored, plans),
    plans,
    planId: modelPlanInForce(user, plan, plans, now),
    signedIn: true,
  };
}

type Owner = Pick<User, 'id'>;
type Subscriber = Pick<User, 'id' | 'planStatus' | 'planEndDate'>;

const ACTIVE: readonly TrackStatus[] = ['pending', 'generating'];

const trackNotFound = () => notFound(generationMessages.trackNotFound);
const privateNeedsPaidPlan = () =>
  new DomainError('payment-required', generationMessages.privateNeedsPaidPlan);

/** The 429 answer when the week's generations are used up. */
export function quotaExhaustedMessage(limit: number, now: Date): string {
  const noun = limit === 1 ? 'generation' : 'generations';
  return `You have used all ${limit} ${noun} of your plan this week. Your quota resets on ${formatResetDate(quotaResetsAt(now))}.`;
}

/**
 * The 429 answer when some of the week's generations are left, but fewer than
 * the model costs (decision 051).
 */
export function quotaShortMessage(modelName: string, units: number, left: number, now: Date): string {
  const noun = left === 1 ? 'generation' : 'generations';
  return `${modelName} costs ${units} generations and you have ${left} ${noun} left this week. Choose another model, or wait until your quota resets on ${formatResetDate(quotaResetsAt(now))}.`;
}

/** What a new generation records beyond its id, owner, state and times. */
type NewGeneration = Pick<
  Generation,
  'type' | 'title' | 'tags' | 'lyrics' | 'duration' | 'visibility' | 'inputAudioUrl' | 'instrumental'
> &
  Partial<Pick<Generation, 'parentId' | 'edit' | 'tempo' | 'musicalKey' | 'remixOf'>> & {
    /** The model it runs (decision 051): every new generation records it. */
    model: string;
    /** Quota units it reserves (the model's cost), given back in full if it fails. */
    quotaUnits: number;
  };

/**
 * The plan whose name and license a new track gets: the user's plan while it
 * is in force (a paid plan in its paid period, or a free plan given to them),
 * else the Free plan (its stored terms; the Terms' if none is stored).
 */
async function planInForce(
  deps: Pick<ProvenanceDeps, 'plans'>,
  user: Subscriber,
  plan: Plan | undefined,
  now: Date,
): Promise<{ name: string; commercialUse: boolean }> {
  if (plan && (entitlementsFor(user, plan, now).paid || !isPaidPlan(plan))) return plan;
  return (await findFreePlan(deps.plans)) ?? { name: 'Free', commercialUse: false };
}

/**
 * Takes one unit of the user's weekly quota (atomically, in the store: never
 * more than `limit`, also under concurrent requests), or throws the 429 of a
 * week used up. Returns the window it was taken from, which a refund names.
 * Generations and stems (decision 044) both pay this way.
 */
export async function reserveUnit(
  deps: Pick<GenerationDeps, 'quota'>,
  user: Pick<User, 'id'>,
  limit: number,
  now: Date,
  units = 1,
  /** The model's name, for the answer when fewer than `units` are left. */
  modelName?: string,
): Promise<string> {
  const windowStart = quotaWindowStart(now);
  const reservation = await deps.quota.reserve(user.id, {
    limit,
    windowStart,
    now: now.toISOString(),
    units,
  });
  if (!reservation.ok) {
    const left = reservation.limit - reservation.used;
    const message =
      modelName && left > 0 && left < units
        ? quotaShortMessage(modelName, units, left, now)
        : quotaExhaustedMessage(limit, now);
    throw new DomainError('quota', message, {
      used: reservation.used,
      limit: reservation.limit,
      resetsAt: quotaResetsAt(now).toISOString(),
    });
  }
  return windowStart;
}

/**
 * Every start goes through here: checks the plan allows the visibility,
 * reserves one unit of the weekly quota (atomically, in the store), then
 * records the generation as `pending` with its origin (provenance and the
 * license of the plan in force, never changed afterwards). If recording
 * fails the unit is given back.
 */
async function reserveAndRecord(
  deps: StartDeps,
  user: Subscriber,
  plan: Plan | undefined,
  fields: NewGeneration,
  inputs: ProvenanceInput[],
): Promise<Generation> {
  const now = deps.clock.now();
  const entitlements = entitlementsFor(user, plan, now);
  if (fields.visibility === 'private' && !entitlements.canPrivate) throw privateNeedsPaidPlan();
  const origin = originOf(fields, inputs, await planInForce(deps, user, plan, now), deps.siteOrigin);

  const windowStart = await reserveUnit(
    deps,
    user,
    entitlements.weeklyLimit,
    now,
    fields.quotaUnits,
    musicModel(fields.model)?.name,
  );

  const at = now.toISOString();
  const generation: Generation = {
    id: deps.newId(),
    userId: user.id,
    ...fields,
    origin,
    status: 'pending',
    showInGallery: true,
    audioUrl: null,
    seed: null,
    falRequestId: null,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await deps.generations.create(generation);
  } catch (error) {
    await deps.quota.refund(user.id, windowStart, fields.quotaUnits);
    throw error;
  }
  return generation;
}

/**
 * Starts a generation: checks the plan allows the visibility, reserves one unit
 * of the weekly quota (atomically, in the store), then records the generation as
 * `pending`. If recording fails the unit is given back. The caller starts the
 * workflow with the returned id. An instrumental records no lyrics (the
 * workflow sends the provider `[instrumental]`).
 */
export async function startGeneration(
  deps: StartDeps,
  user: Subscriber,
  plan: Plan | undefined,
  input: StartGenerationInput,
): Promise<Generation> {
  const asked = input.type === 'text-to-music' && input.instrumental === true;
  const remix = input.type === 'audio-to-music' ? input.remixOf : undefined;
  const inputs: ProvenanceInput[] =
    input.type !== 'audio-to-music'
      ? []
      : remix
        ? [
            {
              kind: 'remix',
              trackId: remix.source.trackId,
              sha256: remix.source.sha256,
              creator: remix.creator,
            },
          ]
        : [{ kind: 'upload', sha256: input.uploadSha256 ?? null }];
  // The model and what it is asked are checked before anything is reserved.
  const context = await modelContextFor(deps, user, plan, deps.clock.now());
  const model = chooseModel(context, input.model);
  const duration = checkModelFields(context, model, {
    kind: input.type === 'audio-to-music' ? 'audio' : 'text',
    tags: input.tags,
    lyrics: input.lyrics,
    instrumental: asked,
    ...(input.type === 'text-to-music' && input.duration !== undefined ? { duration: input.duration } : {}),
  });
  // An instrumental-only model makes nothing else.
  const instrumental = asked || model.lyrics === 'none';
  return reserveAndRecord(
    deps,
    user,
    plan,
    {
      type: input.type,
      title: input.title ?? null,
      tags: input.tags,
      lyrics: instrumental ? '' : input.lyrics,
      duration,
      visibility: input.visibility,
      inputAudioUrl: input.type === 'audio-to-music' ? (input.inputAudioUrl ?? null) : null,
      ...(remix ? { remixOf: remix.source } : {}),
      instrumental,
      model: model.id,
      quotaUnits: quotaCostOf(context, model),
      ...(input.type === 'text-to-music' && input.bpm ? { tempo: input.bpm } : {}),
      ...(input.type === 'text-to-music' && input.key ? { musicalKey: input.key } : {}),
    },
    inputs,
  );
}

/**
 * Launches the workflow of a recorded generation. A generation whose workflow
 * cannot be launched would never move on, so it is marked failed at once
 * (which gives the unit back) and the caller gets `unavailable` with the
 * spec's start-failure message.
 */
async function launch(
  deps: GenerationDeps & { workflow: WorkflowStarter },
  generation: Generation,
): Promise<Generation> {
  try {
    await deps.workflow.start(generation.id);
  } catch (error) {
    const reason = `workflow did not start: ${error instanceof Error ? error.message : String(error)}`;
    try {
      await markFailed(deps, generation.id, reason);
    } catch {
      // The user still hears the start failed; the answer below does not depend on the refund.
    }
    throw new DomainError('unavailable', generationMessages.startFailed);
  }
  return generation;
}

/**
 * What the create calls do: {@link startGeneration} (plan check, one unit
 * reserved, `pending` recorded), then the workflow is launched for it (a
 * launch failure fails the generation and refunds it).
 */
export async function createGeneration(
  deps: StartDeps & { workflow: WorkflowStarter },
  user: Subscriber,
  plan: Plan | undefined,
  input: StartGenerationInput,
): Promise<Generation> {
  return launch(deps, await startGeneration(deps, user, plan, input));
}

/** A studio call, parsed (shared/generations schemas), with its kind. */
export type StudioInput =
  | { kind: 'variation' }
  | ({ kind: 'extend' } & ExtendRequest)
  | ({ kind: 'repaint' } & RepaintRequest);

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The new track a studio call makes from `parent`, or a 400 when the call
 * does not fit the parent (too long, a section outside it). It keeps the
 * parent's type, title, tags and lyrics unless given, and its instrumental
 * unless lyrics are given; its visibility is the parent's, but public when the
 * parent is private and the plan no longer allows private tracks.
 */
function derivedFrom(
  parent: Generation,
  input: StudioInput,
  canPrivate: boolean,
): Omit<NewGeneration, 'model' | 'quotaUnits'> {
  const parentDuration = parent.duration ?? 0;
  let duration = parentDuration;
  let edit: TrackEdit;
  if (input.kind === 'extend') {
    const max = extendRoom(parent.duration);
    if (input.seconds > max) throw validationError(generationMessages.extendSecondsInvalid(max));
    duration = round2(parentDuration + input.seconds);
    edit = { kind: 'extend', seconds: input.seconds, at: input.at };
  } else if (input.kind === 'repaint') {
    if (input.start < 0 || input.end > parentDuration) {
      throw validationError(generationMessages.sectionOutside(parentDuration));
    }
    edit = { kind: 'repaint', start: input.start, end: input.end, variance: input.variance };
  } else {
    edit = { kind: 'variation' };
  }
  const given: { tags?: string; lyrics?: string } = input.kind === 'variation' ? {} : input;
  const newLyrics = given.lyrics !== undefined && given.lyrics !== '';
  const instrumental = newLyrics ? false : parent.instrumental === true;
  const visibility: Visibility =
    parent.visibility === 'private' && !canPrivate ? 'public' : parent.visibility;
  return {
    type: parent.type,
    title: parent.title,
    tags: given.tags ?? parent.tags,
    lyrics: instrumental ? '' : (given.lyrics ?? parent.lyrics),
    duration,
    visibility,
    // A variation of a restyle restyles the same upload; extend and repaint get the parent's audio at submit.
    inputAudioUrl: input.kind === 'variation' ? parent.inputAudioUrl : null,
    instrumental,
    // A variation asks for what its parent asked: the same tempo and key.
    ...(input.kind === 'variation' && parent.tempo ? { tempo: parent.tempo } : {}),
    ...(input.kind === 'variation' && parent.musicalKey ? { musicalKey: parent.musicalKey } : {}),
    // A variation of a remix remixes the same source (decision 060).
    ...(input.kind === 'variation' && parent.remixOf ? { remixOf: parent.remixOf } : {}),
    parentId: parent.id,
    edit,
  };
}

/**
 * The studio calls (variation, extend, repaint): a new generation made from
 * one of the owner's completed tracks. Anyone else's track, public or private,
 * is not found; the owner's unfinished track, or a call that does not fit it,
 * is a 400 with nothing reserved. Then as {@link createGeneration}: one unit
 * reserved (429 when the week's are used), `pending` recorded with `parentId`
 * and `edit`, the workflow launched (its submit step picks the endpoint from
 * `edit.kind`).
 */
export async function createFromTrack(
  deps: StartDeps & { workflow: WorkflowStarter },
  user: Subscriber,
  plan: Plan | undefined,
  parentId: string,
  /**
   * The parsed call, or how to parse it for the track it is made from (its
   * limits name the track's own): read only once the track is known to be the caller's.
   */
  call: StudioInput | ((parent: Pick<Generation, 'duration'>) => StudioInput),
): Promise<Generation> {
  const parent = await deps.generations.get(parentId);
  if (!parent || parent.userId !== user.id) throw trackNotFound();
  // Someone else's track is not found whatever the body says; the owner hears what is wrong with it.
  const input = typeof call === 'function' ? call(parent) : call;
  if (parent.status !== 'completed') throw validationError(generationMessages.notCompleted);
  const now = deps.clock.now();
  const { canPrivate } = entitlementsFor(user, plan, now);
  const derived = derivedFrom(parent, input, canPrivate);
  const context = await modelContextFor(deps, user, plan, now);
  const model = studioChoice(context, parent, input.kind);
  checkModelFields(context, model, {
    kind: input.kind === 'variation' && parent.type === 'audio-to-music' ? 'audio' : 'text',
    tags: derived.tags,
    lyrics: derived.lyrics ?? '',
    instrumental: derived.instrumental === true,
  });
  const instrumental = derived.instrumental === true || model.lyrics === 'none';
  const fields: NewGeneration = {
    ...derived,
    instrumental,
    lyrics: instrumental ? '' : derived.lyrics,
    // A variation asks for its parent's length where the model takes one (within its range), none where it decides.
    ...(input.kind === 'variation'
      ? {
          duration: model.duration
            ? Math.min(model.duration.max, Math.max(model.duration.min, Math.round(parent.duration ?? 60)))
            : parent.type === 'audio-to-music'
              ? derived.duration
              : null,
        }
      : {}),
    model: model.id,
    quotaUnits: quotaCostOf(context, model),
  };
  return launch(deps, await reserveAndRecord(deps, user, plan, fields, inputsFrom(parent, fields)));
}

/**
 * A studio track's inputs: the track it is made from, with the hash of its
 * WAV download (null until that is recorded); a variation of a restyle
 * restyles the same upload again, so it also names the upload, hashed as the
 * parent recorded it.
 */
function inputsFrom(parent: Generation, fields: NewGeneration): ProvenanceInput[] {
  const inputs: ProvenanceInput[] = [
    { kind: 'parent', trackId: parent.id, sha256: parent.audioSha256 ?? null },
  ];
  if (fields.inputAudioUrl) {
    const upload = parent.origin?.inputs.find((input) => input.kind === 'upload');
    inputs.push({ kind: 'upload', sha256: upload?.sha256 ?? null });
  }
  const remix = fields.remixOf && parent.origin?.inputs.find((input) => input.kind === 'remix');
  if (remix) inputs.push(remix);
  return inputs;
}

/**
 * Applies a status change if the generation is still active (pending or
 * generating); completed and failed are final. Returns the stored generation and
 * whether this call made the change.
 */
async function transition(
  deps: GenerationDeps,
  id: string,
  from: readonly TrackStatus[],
  next: (g: Generation, updatedAt: string) => Generation,
): Promise<{ generation: Generation; changed: boolean }> {
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.generations.update(id, (current) =>
    from.includes(current.status) ? next(current, updatedAt) : undefined,
  );
  if (!result) throw trackNotFound();
  return { generation: result.after ?? result.before, changed: result.after !== undefined };
}

/** The provider accepted the request: pending → generating. */
export async function markGenerating(
  deps: GenerationDeps,
  id: string,
  provider: { falRequestId?: string } = {},
): Promise<Generation> {
  const { generation } = await transition(deps, id, ['pending'], (g, updatedAt) => ({
    ...g,
    status: 'generating',
    falRequestId: provider.falRequestId ?? g.falRequestId,
    updatedAt,
  }));
  return generation;
}

/** The audio is in our bucket: pending or generating → completed (final), with its loudness and the WAV's hash. */
export async function markCompleted(
  deps: GenerationDeps,
  id: string,
  result: {
    audioUrl: string;
    streamAudioUrl?: string | null;
    peaksUrl?: string | null;
    duration: number;
    seed: number | null;
    /** The master's loudness and the stream's gain; null when the audio could not be measured. */
    loudness?: Loudness | null;
    /** SHA-256 (hex) of the WAV download exactly as stored; null while it is being prepared. */
    audioSha256?: string | null;
    /** `audioUrl` is the master as it came: the download is prepared next ({@link markDownloadReady}). */
    downloadPending?: boolean;
    /** Tempo and key measured from the audio; absent when it could not be measured. */
    analysis?: TrackAnalysis | null;
  },
): Promise<Generation> {
  const { generation } = await transition(deps, id, ACTIVE, (g, updatedAt) => ({
    ...g,
    status: 'completed',
    audioUrl: result.audioUrl,
    streamAudioUrl: result.streamAudioUrl ?? null,
    peaksUrl: result.peaksUrl ?? null,
    duration: result.duration,
    seed: result.seed,
    loudness: result.loudness ?? null,
    audioSha256: result.audioSha256 ?? null,
    ...(result.downloadPending ? { downloadPending: true } : {}),
    ...(result.analysis ? { analysis: result.analysis } : {}),
    updatedAt,
  }));
  return generation;
}

/**
 * A completed track's download is prepared: its audio becomes the marked WAV
 * at `audioUrl`, with that file's hash. Only a track still completed, still
 * pending and still holding the master `from` is changed; returns the track
 * as it is now, or undefined when it was deleted meanwhile.
 */
export async function markDownloadReady(
  deps: { generations: Pick<GenerationStore, 'update'>; clock: GenerationDeps['clock'] },
  id: string,
  download: { from: string; audioUrl: string; audioSha256: string },
): Promise<Generation | undefined> {
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.generations.update(id, (g) => {
    if (g.status !== 'completed' || !g.downloadPending || g.audioUrl !== download.from) return undefined;
    return {
      ...g,
      audioUrl: download.audioUrl,
      audioSha256: download.audioSha256,
      downloadPending: false,
      updatedAt,
    };
  });
  return result ? (result.after ?? result.before) : undefined;
}

/**
 * Any error or timeout: pending or generating → failed (final), and the unit
 * reserved at start goes back to the owner. Only the call that makes the change
 * refunds, so repeating it, or failing a completed track, changes nothing. The
 * unit is refunded into the window it was taken from (the week of `createdAt`);
 * once that week is over there is nothing to give back.
 * `reason` is returned for the caller's logs; the track keeps no error text.
 */
export async function markFailed(
  deps: GenerationDeps,
  id: string,
  reason: string,
): Promise<{ generation: Generation; refunded: boolean; reason: string; changed: boolean }> {
  const { generation, changed } = await transition(deps, id, ACTIVE, (g, updatedAt) => ({
    ...g,
    status: 'failed',
    updatedAt,
  }));
  if (!changed) return { generation, refunded: false, reason, changed };
  const refunded = await deps.quota.refund(
    generation.userId,
    quotaWindowStart(new Date(generation.createdAt)),
    generation.quotaUnits ?? 1,
  );
  return { generation, refunded, reason, changed };
}

/**
 * Renames a track and sets its visibility. Only the owner may; anyone else gets
 * not-found so private tracks do not leak. Making a track private needs a paid
 * plan; a track that is already private may stay so (a downgraded user can still
 * rename it).
 */
export async function renameOrSetVisibility(
  deps: GenerationDeps,
  user: Subscriber,
  plan: Plan | undefined,
  id: string,
  input: UpdateGenerationRequest,
): Promise<Generation> {
  const now = deps.clock.now();
  const { canPrivate } = entitlementsFor(user, plan, now);
  const updatedAt = now.toISOString();
  const result = await deps.generations.update(id, (current) => {
    if (current.userId !== user.id) return undefined;
    if (input.visibility === 'private' && current.visibility !== 'private' && !canPrivate) {
      throw privateNeedsPaidPlan();
    }
    return { ...current, title: input.title, visibility: input.visibility, updatedAt };
  });
  if (!result || result.before.userId !== user.id || !result.after) throw trackNotFound();
  return result.after;
}

/**
 * Deletes the owner's track; anyone else gets not-found. Returns the audio the
 * caller must remove from storage: the result and, for a remix, the upload.
 * A track deleted while pending or generating never completes, so its unit
 * goes back (the workflow finds it gone and refunds nothing itself).
 */
export async function deleteGeneration(
  deps: GenerationDeps,
  user: Owner,
  id: string,
): Promise<{ generation: Generation; audioUrls: string[]; refunded: boolean }> {
  const deleted = await deps.generations.delete(id, user.id);
  if (!deleted) throw trackNotFound();
  // An upload restyled more than once stays while another of the owner's tracks uses it.
  const upload =
    deleted.inputAudioUrl && !(await uploadInUse(deps, user.id, deleted.inputAudioUrl))
      ? deleted.inputAudioUrl
      : null;
  const audioUrls = [...storedTrackAudio(deleted), ...(upload ? [upload] : [])];
  const refunded = ACTIVE.includes(deleted.status)
    ? await deps.quota.refund(
        deleted.userId,
        quotaWindowStart(new Date(deleted.createdAt)),
        deleted.quotaUnits ?? 1,
      )
    : false;
  return { generation: deleted, audioUrls, refunded };
}

/** Whether any of the owner's tracks restyles this upload (every page of the library). */
async function uploadInUse(
  deps: Pick<GenerationDeps, 'generations'>,
  userId: string,
  inputAudioUrl: string,
): Promise<boolean> {
  for await (const generation of tracksOf(deps, userId)) {
    if (generation.inputAudioUrl === inputAudioUrl) return true;
  }
  return false;
}

/**
 * Whether a viewer (undefined: a visitor) may see a track: its owner always,
 * anyone else only while it is neither private nor hidden after a report
 * (decision 061). The one rule behind the track page, its provenance, lyrics,
 * stems, audio, family and its share page.
 */
export const mayView = (
  g: Pick<Generation, 'visibility' | 'userId'> & Pick<Partial<Generation>, 'hidden'>,
  viewer: Owner | undefined,
): boolean => (g.visibility !== 'private' && !g.hidden) || viewer?.id === g.userId;

/**
 * Whether a viewer (undefined: a visitor) may play a track's audio: they may
 * see it ({@link mayView}) and it has finished with audio. The rule of a
 * shared link's audio and (for a visitor) of its share page.
 */
export const mayPlay = (
  g: Pick<Generation, 'visibility' | 'userId' | 'status' | 'audioUrl'> & Pick<Partial<Generation>, 'hidden'>,
  viewer: Owner | undefined,
): boolean => mayView(g, viewer) && g.status === 'completed' && !!g.audioUrl;

/**
 * A track whose audio a viewer may play ({@link mayPlay}); anything else
 * (private to someone else, unknown, deleted, unfinished, failed) is not
 * found, as the track page says of a track it will not show.
 */
export async function getPlayableForViewer(
  deps: Pick<GenerationDeps, 'generations'>,
  viewer: Owner | undefined,
  id: string,
): Promise<Generation> {
  const generation = await deps.generations.get(id);
  if (!generation || !mayPlay(generation, viewer)) throw trackNotFound();
  return generation;
}

/** A track as a viewer may see it: a private track is not found for anyone but its owner. */
export async function getForViewer(
  deps: Pick<GenerationDeps, 'generations'>,
  viewer: Owner | undefined,
  id: string,
): Promise<Generation> {
  const generation = await deps.generations.get(id);
  if (!generation || !mayView(generation, viewer)) throw trackNotFound();
  return generation;
}

/**
 * The track a track was made from, as far as a viewer may be told of it. Its
 * owner is told always (a parent that no longer exists as `deleted`, under
 * the id the track keeps). Anyone else is told only of a parent that exists,
 * is the same owner's and is public: a private parent, or one that is gone
 * (it may have been private), is not named to them at all, neither its id
 * nor, in the provenance record, the hash of its audio.
 */
export async function parentForViewer(
  deps: Pick<GenerationDeps, 'generations'>,
  viewer: Owner | undefined,
  track: Pick<Generation, 'userId' | 'parentId'>,
): Promise<TrackFamily['parent']> {
  if (!track.parentId) return null;
  const found = await deps.generations.get(track.parentId);
  if (!found) return viewer?.id === track.userId ? { id: track.parentId, title: null, deleted: true } : null;
  if (found.userId !== track.userId || !mayView(found, viewer)) return null;
  return { id: found.id, title: found.title, deleted: false };
}

/**
 * A track's family for its page: the track it was made from
 * ({@link parentForViewer}) and the tracks made from it (always its owner's,
 * read from the owner's library a page at a time), oldest first, each with
 * its state. Only what the viewer may see is named: the owner sees every
 * child, unfinished and failed ones too; anyone else sees the public,
 * completed ones.
 */
export async function familyOf(
  deps: Pick<GenerationDeps, 'generations'>,
  viewer: Owner | undefined,
  track: Pick<Generation, 'id' | 'userId' | 'parentId'>,
): Promise<TrackFamily> {
  const parent = await parentForViewer(deps, viewer, track);
  const isOwner = viewer?.id === track.userId;
  const children: TrackFamily['children'] = [];
  for await (const g of tracksOf(deps, track.userId)) {
    if (g.parentId !== track.id || !g.edit) continue;
    if (!isOwner && !(g.visibility === 'public' && g.status === 'completed' && !g.hidden)) continue;
    children.push({ id: g.id, title: g.title, kind: g.edit.kind, status: g.status });
  }
  return { parent, children: children.reverse() };
}

/** For the profile: how many of this week's generations are used, and when the count resets. */
export async function quotaStatus(
  deps: Pick<GenerationDeps, 'quota' | 'clock'>,
  user: Subscriber,
  plan: Plan | undefined,
): Promise<{ used: number; limit: number; resetsAt: string }> {
  const now = deps.clock.now();
  const stored = await deps.quota.read(user.id);
  return {
    used: usedThisWindow(stored, now),
    limit: entitlementsFor(user, plan, now).weeklyLimit,
    resetsAt: quotaResetsAt(now).toISOString(),
  };
}
