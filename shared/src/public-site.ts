/**
 * The public settings (`GET /api/site`) and their values on a new installation.
 * A module without zod: the SPA's first code shows these before the API
 * answers, and a schema module would bring zod and its messages with it.
 */
export interface PublicSite {
  name: string;
  description: string;
  supportEmail: string;
  contactEmail: string;
}

/**
 * The public settings as a new installation has them. A literal of its own, so
 * the SPA, which shows these before the API answers, carries only these values
 * and not every setting's description.
 */
export const defaultPublicSite: PublicSite = {
  name: 'Tunesmith',
  description:
    'Create music with AI: turn genre tags and lyrics, or a song of your own, into a finished track.',
  supportEmail: 'support@tunesmith.example',
  contactEmail: 'hello@tunesmith.example',
};
