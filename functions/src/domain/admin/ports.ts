import type { AuditEntry } from '@tunesmith/shared/admin';
import type { AccountDeletionDeps } from '../accounts/account-deletion';
import type { Clock, IdentityProvider } from '../accounts/ports';
import type { User, UserRepository } from '../accounts/user';
import type { PriceCatalog } from '../billing/plan-prices';
import type { BillingAccounts, Payments } from '../billing/ports';
import type { GenerationStore } from '../generations/ports';
import type { PlanRepository } from '../plans/plan';
import type { PricingDocument } from '../plans/pricing-page';
import type { SettingsRepository } from '../settings/settings';
import type { SharePageDeps } from '../tracks/share-page';
import type { Generation, Page } from '../tracks/track';
import type { DayCounts, Totals } from './counters';

export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** The site's counters (constant-time reads). */
export interface SiteCounters {
  totals(): Promise<Totals>;
  day(date: string): Promise<DayCounts>;
}

/** Who did what to which record, newest first. */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  recent(limit: number): Promise<AuditEntry[]>;
}

/** Every regular user, for the admin area. */
export interface UserDirectory {
  /** Newest first. */
  list(page: PageRequest): Promise<Page<User>>;
  /** Users with an email, first, last or full name starting with `prefix` (normalised). */
  search(prefix: string, page: PageRequest): Promise<Page<User>>;
  /** How many users name the plan, counting at most `upTo`. */
  countOnPlan(planId: string, upTo: number): Promise<number>;
}

export interface TrackFilter {
  /** Lowercased text found in the title or tags. */
  q?: string;
  status?: Generation['status'];
  visibility?: Generation['visibility'];
}

/** Every track, for the admin area. */
export interface TrackDirectory {
  /** Newest first, filtered on the server. */
  list(filter: TrackFilter, page: PageRequest): Promise<Page<Generation>>;
}

/** The spec's usage_analytics record of one UTC day. */
export interface UsageAnalytics {
  id: string;
  date: string;
  /** Snapshot at the time of writing. */
  totalUsers: number;
  /** Accounts created that day. */
  newUsers: number;
  /** Generations started that day, and by type. */
  totalGenerations: number;
  textToMusicGenerations: number;
  audioToMusicGenerations: number;
  /** Snapshot at the time of writing. */
  publicTracks: number;
  privateTracks: number;
  createdAt: string;
}

export interface UsageAnalyticsStore {
  /** Writes the day's record unless one exists; returns whether it wrote. */
  putIfAbsent(record: UsageAnalytics): Promise<boolean>;
}

/** Objects stored under a key prefix (a user's uploads or audio). */
export interface ObjectSweeper {
  /** Deletes every object under the prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}

/** Encrypts secret settings before they are stored (KMS on AWS). */
export interface SecretBox {
  seal(plaintext: string, context: string): Promise<string>;
  open(sealed: string, context: string): Promise<string>;
}

/** What Stripe says of a secret key: it works, it is refused, or Stripe could not be asked. */
export type StripeKeyVerdict = 'ok' | 'refused' | 'unreachable';

/** Tries a Stripe secret key with a read that changes nothing, before it is stored. */
export interface StripeKeyCheck {
  checkSecretKey(secretKey: string): Promise<StripeKeyVerdict>;
}

/** Profiles as the admin area changes them. */
export interface AdminUserStore extends UserRepository {
  /** Changes the names and the search words that find them. */
  rename(user: User, names: Pick<User, 'firstName' | 'lastName'>, updatedAt: string): Promise<void>;
}

export interface AuditDeps {
  audit: AuditLog;
  clock: Clock;
  newId: () => string;
}

export interface AdminDeps extends AuditDeps {
  counters: SiteCounters;
  users: AdminUserStore;
  directory: UserDirectory;
  identity: IdentityProvider;
  accounts: BillingAccounts;
  /**
   * The payment provider: ends a deleted user's subscription at once, keeps
   * the plans' prices and the portal's offer in line with the plans, and
   * closes a user's open Checkout page when a plan is granted.
   */
  payments: Pick<Payments, 'cancelNow' | 'listSubscriptions' | 'expireCheckoutSession'> & PriceCatalog;
  /** Removes the customer → user link of a deleted user. */
  unlinkCustomer(customerId: string): Promise<void>;
  /** A deleted user's exports: their records and zips. */
  exports: AccountDeletionDeps['exports'];
  /** A deleted user's API keys. */
  apiKeys: AccountDeletionDeps['apiKeys'];
  /** A deleted user's webhook endpoints and deliveries. */
  webhooks: AccountDeletionDeps['webhooks'];
  /** A deleted user's likes and counted plays. */
  likesAndPlays: AccountDeletionDeps['likesAndPlays'];
  plans: PlanRepository & { delete(id: string): Promise<void> };
  /** The pricing page's document, which shows the plans to a browser without scripts (decision 038). */
  pricingPage: PricingDocument;
  generations: GenerationStore;
  tracks: TrackDirectory;
  /** Where uploads and track audio are kept. */
  uploads: ObjectSweeper & { delete(key: string): Promise<void> };
  trackAudio: ObjectSweeper & {
    remove(stored: string): Promise<void>;
    downloadLink(stored: string, filename: string): Promise<string>;
  };
  /** A playable link for stored audio (private tracks included). */
  audioLinks: (stored: string | null) => Promise<string | null>;
  /** Settings, secrets sealed on write and opened on read. */
  settings: SettingsRepository;
  /** Settings as stored (secrets still sealed): enough to tell which are set. */
  storedSettings: Pick<SettingsRepository, 'list'>;
  /** Asks Stripe whether a secret key works before it is saved. */
  stripeKeyCheck: StripeKeyCheck;
  /** Share documents: they follow an admin's rename and delete, and go with a deleted user's tracks (decision 024). */
  sharePages: SharePageDeps;
  /** Told when a share page could not be brought in line after a change that stands. */
  onShareRefreshFailure?: (id: string, error: unknown) => void;
}
