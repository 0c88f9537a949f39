import { createHash, randomBytes } from 'node:crypto';
import type { Secrets } from '../domain/accounts/ports';

/** 32 random bytes, URL-safe; only their SHA-256 is ever stored. */
export const nodeSecrets: Secrets = {
  newToken: () => randomBytes(32).toString('base64url'),
  hash: (token) => createHash('sha256').update(token, 'utf8').digest('hex'),
};
