import * as z from 'zod/mini';
import './schema-messages';
import { defaultPublicSite, type PublicSite } from './public-site';

export { defaultPublicSite, type PublicSite };

/** Site settings keys (spec 2 section 9) and their defaults. */
export const settingKeys = [
  'site_name',
  'site_description',
  'support_email',
  'contact_email',
  'stripe_publishable_key',
  'stripe_secret_key',
  'stripe_webhook_secret',
  'fal_api_key',
] as const;
export type SettingKey = (typeof settingKeys)[number];

/** Settings whose values are never sent back to a browser. */
export const secretSettingKeys: readonly SettingKey[] = [
  'stripe_secret_key',
  'stripe_webhook_secret',
  'fal_api_key',
];

export interface SettingDefault {
  key: SettingKey;
  value: string;
  description: string;
  type: 'text' | 'secret';
  category: 'general' | 'stripe' | 'music';
}

export const defaultSettings: readonly SettingDefault[] = [
  {
    key: 'site_name',
    value: defaultPublicSite.name,
    description: 'Name shown across the site',
    type: 'text',
    category: 'general',
  },
  {
    key: 'site_description',
    value: defaultPublicSite.description,
    description: 'Short description of the site',
    type: 'text',
    category: 'general',
  },
  {
    key: 'support_email',
    value: defaultPublicSite.supportEmail,
    description: 'Support address',
    type: 'text',
    category: 'general',
  },
  {
    key: 'contact_email',
    value: defaultPublicSite.contactEmail,
    description: 'Contact address',
    type: 'text',
    category: 'general',
  },
  {
    key: 'stripe_publishable_key',
    value: '',
    description: 'Stripe publishable key',
    type: 'text',
    category: 'stripe',
  },
  {
    key: 'stripe_secret_key',
    value: '',
    description: 'Stripe secret key',
    type: 'secret',
    category: 'stripe',
  },
  {
    key: 'stripe_webhook_secret',
    value: '',
    description: 'Stripe webhook signing secret',
    type: 'secret',
    category: 'stripe',
  },
  {
    // Empty: the server's FAL_KEY environment variable is used instead.
    key: 'fal_api_key',
    value: '',
    description: 'fal.ai API key for music and lyrics generation (empty: use the server environment)',
    type: 'secret',
    category: 'music',
  },
];

/** The longest site name: it sits in the header, tab titles and mail subjects. */
export const SITE_NAME_MAX_LENGTH = 60;

/** Settings anyone may read: how the site names itself and where to write to it. */
export const publicSettingKeys = [
  'site_name',
  'site_description',
  'support_email',
  'contact_email',
] as const satisfies readonly SettingKey[];

/** `GET /api/site`: the public settings, each with its default when none is stored. */
export const publicSiteSchema = z.object({
  name: z.string(),
  description: z.string(),
  supportEmail: z.string(),
  contactEmail: z.string(),
});
// The schema's answer is the shape the SPA reads by hand.
publicSiteSchema satisfies z.ZodMiniType<PublicSite>;
