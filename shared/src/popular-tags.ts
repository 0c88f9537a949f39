/**
 * The tags the create form offers as one-tap chips. A module of its own, not
 * in constants.ts: the app's first code imports constants, and only the
 * create form needs these (decision 042).
 */
export const POPULAR_TAGS = [
  'female singer',
  'male singer',
  'pop',
  'electronic',
  'hip hop',
  'ad jingle',
  'synthwave',
  'lo-fi',
  'energetic',
  'upbeat',
] as const;
