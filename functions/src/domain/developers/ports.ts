import type { ApiScope } from '@tunesmith/shared/api-routes';
import type { Clock } from '../accounts/ports';

/** An API key as stored: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  id: string;
  userId: string;
  name: string;
  /** The key's first 12 characters (`ts_live_ab12`), to tell keys apart. */
  prefix: string;
  scopes: ApiScope[];
  /** Hex SHA-256 of the key. */
  hash: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** What authenticating by a key's hash needs: the live key, without its name. */
export type ApiKeyLookup = Pick<ApiKeyRecord, 'id' | 'userId' | 'scopes' | 'hash' | 'lastUsedAt'>;

/** Storage port for API keys. */
export interface ApiKeyStore {
  /**
   * Stores a new key unless its user already holds `max` live keys, decided
   * atomically (concurrent creates never pass `max`). False when they do.
   */
  create(record: ApiKeyRecord, max: number): Promise<boolean>;
  /** The user's live (unrevoked) keys, in any order. */
  listLive(userId: string): Promise<ApiKeyRecord[]>;
  /**
   * Revokes the user's live key `id` at once (its hash stops authenticating
   * in the same write). False when the user has no such live key.
   */
  revoke(userId: string, id: string, at: string): Promise<boolean>;
  /** The live key whose hash this is, read consistently (a revoked key is never found). */
  findByHash(hash: string): Promise<ApiKeyLookup | undefined>;
  /** Records a use at `at` unless one after `notBefore` is recorded already (or the key is revoked). */
  touch(key: ApiKeyLookup, at: string, notBefore: string): Promise<void>;
  /** Removes every key of the user, revoked ones too (the account's deletion). */
  removeAll(userId: string): Promise<void>;
}

/** Whose keys look like what: `test` on the local cloud, `live` on AWS. */
export type ApiKeyMode = 'test' | 'live';

export interface ApiKeyDeps {
  apiKeys: ApiKeyStore;
  /** `length` characters of [0-9A-Za-z], each from a cryptographic source and uniformly chosen. */
  randomBase62(length: number): string;
  /** Hex SHA-256 of a key. */
  hash(key: string): string;
  clock: Clock;
  newId: () => string;
  mode: ApiKeyMode;
}
