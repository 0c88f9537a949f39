/*
 * The music models Tunesmith can run (decision 051): one registry that the
 * API, the workflow, the fal adapter, the embedded provider and the SPA all
 * read. Every fact here was checked against fal's own model page or fal's
 * generated OpenAPI types (the `fal-ai/fal-js` client) before it was coded;
 * the decision record lists the sources and what was left out and why.
 *
 * Free of zod and of the rest of the app: the SPA's create form imports it.
 */

/** The kinds of job a model may run: text to music, restyle an upload, extend, repaint a section. */
export const MODEL_JOB_KINDS = ['text', 'audio', 'extend', 'repaint'] as const;
export type ModelJobKind = (typeof MODEL_JOB_KINDS)[number];

/** How fal prices a model: per second or per started minute of output audio, or per song whatever its length. */
export type ModelPrice =
  | { per: 'second'; usd: number }
  | { per: 'minute'; usd: number }
  | { per: 'song'; usd: number };

export interface MusicModel {
  /** Stable id, as the API takes it (`model`) and a track records it. */
  readonly id: string;
  /** As people read it. */
  readonly name: string;
  /** Who made the model. */
  readonly vendor: string;
  /** One line: what it is best for. */
  readonly bestFor: string;
  /** The fal endpoint of each kind of job it runs; `text` always. */
  readonly endpoints: Readonly<{ text: string } & Partial<Record<Exclude<ModelJobKind, 'text'>, string>>>;
  /**
   * What it does with words: `optional` (sings lyrics when given, an
   * instrumental otherwise), `required` (always sings: lyrics must be given)
   * or `none` (instrumental only: lyrics are refused).
   */
  readonly lyrics: 'optional' | 'required' | 'none';
  /** Characters of lyrics it takes when it takes any (as fal documents them). */
  readonly lyricsLength?: { readonly min: number; readonly max: number };
  /** Characters of the description (our tags) it takes, as fal documents them. */
  readonly promptLength: { readonly min: number; readonly max: number };
  /** Whole seconds it can be asked for; null when the model decides the length itself. */
  readonly duration: { readonly min: number; readonly max: number } | null;
  /** Languages it sings in, as its maker states them (empty for instrumental-only models). */
  readonly languages: readonly string[];
  /** Its price at fal, as fal's page states it. */
  readonly price: ModelPrice;
  /** Where its terms of use are read. */
  readonly termsUrl: string;
  /** Quota units one generation costs until an administrator sets otherwise. */
  readonly defaultQuotaCost: number;
}

/**
 * The model every track was made with before there was a choice, and the
 * site's default until an administrator picks another.
 */
export const DEFAULT_MODEL_ID = 'ace-step';

export const MUSIC_MODELS = [
  {
    id: 'ace-step',
    name: 'ACE-Step',
    vendor: 'ACE Studio and StepFun',
    bestFor: 'Songs with your own lyrics or instrumentals, and every studio action',
    endpoints: {
      text: 'fal-ai/ace-step',
      audio: 'fal-ai/ace-step/audio-to-audio',
      extend: 'fal-ai/ace-step/audio-outpaint',
      repaint: 'fal-ai/ace-step/audio-inpaint',
    },
    lyrics: 'optional',
    lyricsLength: { min: 0, max: 5000 },
    promptLength: { min: 1, max: 500 },
    duration: { min: 5, max: 240 },
    languages: [
      'English',
      'Chinese',
      'Russian',
      'Spanish',
      'Japanese',
      'German',
      'French',
      'Portuguese',
      'Italian',
      'Korean',
    ],
    price: { per: 'second', usd: 0.0002 },
    termsUrl: 'https://fal.ai/models/fal-ai/ace-step',
    defaultQuotaCost: 1,
  },
  {
    id: 'minimax-music-2',
    name: 'MiniMax Music 2.0',
    vendor: 'MiniMax',
    bestFor: 'Short sung songs from your lyrics, at the lowest price',
    endpoints: { text: 'fal-ai/minimax-music/v2' },
    lyrics: 'required',
    lyricsLength: { min: 10, max: 3000 },
    promptLength: { min: 10, max: 300 },
    duration: null,
    languages: [],
    price: { per: 'song', usd: 0.03 },
    termsUrl: 'https://fal.ai/models/fal-ai/minimax-music/v2',
    defaultQuotaCost: 1,
  },
  {
    id: 'minimax-music-2.5',
    name: 'MiniMax Music 2.5',
    vendor: 'MiniMax',
    bestFor: 'Full songs with singing and detailed arrangements, or instrumentals',
    endpoints: { text: 'fal-ai/minimax-music/v2.5' },
    lyrics: 'optional',
    lyricsLength: { min: 1, max: 3500 },
    promptLength: { min: 1, max: 2000 },
    duration: null,
    languages: [],
    price: { per: 'song', usd: 0.15 },
    termsUrl: 'https://fal.ai/models/fal-ai/minimax-music/v2.5',
    defaultQuotaCost: 3,
  },
  {
    id: 'cassetteai',
    name: 'CassetteAI',
    vendor: 'CassetteAI',
    bestFor: 'Fast instrumentals up to three minutes',
    endpoints: { text: 'CassetteAI/music-generator' },
    lyrics: 'none',
    promptLength: { min: 1, max: 500 },
    duration: { min: 10, max: 180 },
    languages: [],
    price: { per: 'minute', usd: 0.02 },
    termsUrl: 'https://fal.ai/models/cassetteai/music-generator',
    defaultQuotaCost: 1,
  },
  {
    id: 'stable-audio-2.5',
    name: 'Stable Audio 2.5',
    vendor: 'Stability AI',
    bestFor: 'Instrumentals and sound design up to 190 seconds',
    endpoints: { text: 'fal-ai/stable-audio-25/text-to-audio' },
    lyrics: 'none',
    promptLength: { min: 1, max: 500 },
    duration: { min: 1, max: 190 },
    languages: [],
    price: { per: 'song', usd: 0.2 },
    termsUrl: 'https://fal.ai/models/fal-ai/stable-audio-25/text-to-audio',
    defaultQuotaCost: 4,
  },
] as const satisfies readonly MusicModel[];

export type ModelId = (typeof MUSIC_MODELS)[number]['id'];
export const MODEL_IDS = MUSIC_MODELS.map((m) => m.id) as readonly ModelId[];

const byId: ReadonlyMap<string, MusicModel> = new Map(MUSIC_MODELS.map((m) => [m.id, m]));

/** The registered model with this id, if any. */
export const musicModel = (id: string): MusicModel | undefined => byId.get(id);

/** Whether a model runs a kind of job (every model runs `text`). */
export const modelRuns = (model: MusicModel, kind: ModelJobKind): boolean =>
  model.endpoints[kind] !== undefined;

/** Whether a model can make an instrumental (no lyrics sung). */
export const makesInstrumentals = (model: MusicModel): boolean => model.lyrics !== 'required';

/**
 * What fal charges for one generation of `seconds` of audio, in US dollars
 * (per-minute prices are charged per started minute, the careful reading of
 * fal's pages, which do not say how they round).
 */
export function providerCostUsd(model: MusicModel, seconds: number): number {
  switch (model.price.per) {
    case 'second':
      return model.price.usd * seconds;
    case 'minute':
      return model.price.usd * Math.max(1, Math.ceil(seconds / 60));
    case 'song':
      return model.price.usd;
  }
}

/**
 * The model a studio action (extend, repaint, restyle) on a track runs: the
 * track's own model where it runs that kind of job, else the first
 * registered model that does among `usable` (the models on and offered to the
 * user), undefined when none does. A track from before the choice was made
 * with {@link DEFAULT_MODEL_ID}.
 */
export function studioModel(
  trackModelId: string | null | undefined,
  kind: Exclude<ModelJobKind, 'text'>,
  usable: (model: MusicModel) => boolean = () => true,
): MusicModel | undefined {
  const own = musicModel(trackModelId ?? DEFAULT_MODEL_ID);
  if (own && modelRuns(own, kind) && usable(own)) return own;
  return MUSIC_MODELS.find((m) => modelRuns(m, kind) && usable(m));
}
