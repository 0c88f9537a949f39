import type { CreatorNames } from '../domain/community/ports';

/**
 * Creators' public names. Until public profiles exist every creator is anonymous, which is what a
 * track without a public profile shows (decision 056).
 */
export const anonymousCreators: CreatorNames = { names: async () => new Map() };
