import type { EditKind } from '@tunesmith/shared/tracks';
import { formatSectionTime } from '@/components/tracks/track-edit';

/** The studio's words: its menu, dialogs and toasts. */
export const studioMessages = {
  menu: 'More',
  actions: {
    extend: 'Extend',
    repaint: 'Repaint section',
    variation: 'Make variation',
    stems: 'Separate stems',
  } satisfies Record<EditKind | 'stems', string>,
  submit: {
    extend: 'Extend',
    repaint: 'Repaint',
    variation: 'Make Variation',
    stems: 'Separate',
  } satisfies Record<EditKind | 'stems', string>,
  pending: 'Starting...',
  startedTitle: {
    extend: 'Extension started',
    repaint: 'Repaint started',
    variation: 'Variation started',
  } satisfies Record<EditKind, string>,
  startedDescription: (title: string) =>
    `"${title}" is on its way: it shows in your library and plays once it is ready.`,
  generationFailedTitle: 'Generation Failed',
  originalStays: 'The original stays as it is.',
  extendWillMake: (seconds: number | null) =>
    seconds
      ? `A new track, ${seconds} seconds longer, is made from this one.`
      : 'A new, longer track is made from this one.',
  repaintWillMake: (start: number | null, end: number | null) =>
    start != null && end != null && end > start
      ? `A new track is made from this one with ${formatSectionTime(start)}–${formatSectionTime(end)} played anew; the rest stays as it was.`
      : 'A new track is made from this one with the section you choose played anew; the rest stays as it was.',
  variationWillMake:
    'A new take of this track is made: the same tags, lyrics and length, with a different performance.',
  cost: (limit: number, units = 1) => `Uses ${units} of your ${limit} generations this week.`,
  /** What the action does to the track, after the model's name. */
  modelDoes: {
    extend: 'extend',
    repaint: 'repaint a section of',
    variation: 'make a variation of',
  } satisfies Record<EditKind, string>,
  /** Which model makes the new track, and what it costs, before anything is spent. */
  madeWith: (trackModel: string, model: string, does: string, units: number) =>
    `Made with ${trackModel}. ${model} will ${does} it: ${units === 1 ? '1 generation' : `${units} generations`}.`,
  noModel: (trackModel: string, does: string) =>
    `Made with ${trackModel}. No model on your plan can ${does} it.`,
  modelLoading: 'Checking which model will do it...',
  modelUnknown: 'Which model will do it could not be checked; the site picks one that can.',
  left: (left: number) => (left === 1 ? 'You have 1 left.' : `You have ${left} left.`),
  tooFewLeft: (left: number) => `You have ${left} left: not enough for this.`,
  noneLeft: (resets: string) =>
    resets ? `You have none left: your count starts again on ${resets}.` : 'You have none left this week.',
  stemsWillMake: (set: string) =>
    `The track is split into ${set} stems, to mix on its page and to download on plans with downloads.`,
  stemNames: (names: readonly string[]) =>
    `${names
      .map((name, i) => (i === 0 ? name.charAt(0).toUpperCase() + name.slice(1) : name))
      .join(', ')
      .replace(/, ([^,]*)$/, ' and $1')}.`,
  stemsExist: 'This track has these stems already: they are under its player.',
  stemsUnderWay: 'These stems are being separated: they show under the player once they are ready.',
  stemsStartedTitle: 'Separating stems',
  stemsStarted: (title: string) =>
    `"${title}" is being taken apart: its stems show on its page once they are ready.`,
  stemsFailedTitle: 'Stems Failed',
  /** In place of Separate stems when the plan separates into no set (a link to the plans). */
  stemsUpgrade: 'Upgrade for Stems',
  stemsFailed: 'The stems could not be started. Please try again.',
  seePlans: 'See Plans',
  close: 'Close',
  textHint: "These start as the track's own; change them to steer the new music.",
} as const;
