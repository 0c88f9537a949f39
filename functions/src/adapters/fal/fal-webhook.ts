/**
 * Verifies fal webhooks (shared/notes/fal.md): Ed25519 over
 * `${requestId}\n${userId}\n${timestamp}\n${sha256hex(rawBody)}`, the signature in
 * hex, checked against any key of the JWKS (cached at most 24 h, fetched again
 * when no cached key verifies a delivery), and the
 * timestamp within 300 s of now. node:crypto only.
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { VerifiedWebhook, WebhookVerifier } from '../../domain/generations/music-provider';

export const DEFAULT_FAL_JWKS_URL = 'https://rest.fal.ai/.well-known/jwks.json';
export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const JWKS_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/**
 * A signature no cached key verifies fetches the keys again (fal may have
 * rotated them), at most this often, so forged deliveries cannot make us
 * hammer the JWKS.
 */
export const JWKS_REFRESH_MIN_MS = 5 * 60 * 1000;

export interface FalWebhookVerifierOptions {
  /** `FAL_WEBHOOK_JWKS_URL`; fal's own by default. */
  jwksUrl?: string;
  /** How long fetched keys are reused (at most, and by default, 24 h). */
  cacheMs?: number;
  fetch?: typeof fetch;
}

const header = (headers: Record<string, string | undefined>, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
};

function keysFrom(jwks: unknown): KeyObject[] {
  const list = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) return [];
  const keys: KeyObject[] = [];
  for (const jwk of list) {
    const k = jwk as { kty?: unknown; crv?: unknown; x?: unknown };
    if (k?.kty !== 'OKP' || k.crv !== 'Ed25519' || typeof k.x !== 'string') continue;
    try {
      keys.push(createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.x }, format: 'jwk' }));
    } catch {
      // A malformed key never verifies anything; skip it.
    }
  }
  return keys;
}

export function falWebhookVerifier(options: FalWebhookVerifierOptions = {}): WebhookVerifier {
  const jwksUrl = options.jwksUrl || DEFAULT_FAL_JWKS_URL;
  const cacheMs = Math.min(options.cacheMs ?? JWKS_MAX_AGE_MS, JWKS_MAX_AGE_MS);
  const doFetch = options.fetch ?? fetch;
  let cached: { keys: KeyObject[]; at: number } | undefined;
  let loading: Promise<KeyObject[]> | undefined;

  const loadKeys = async (nowMs: number, refresh = false): Promise<KeyObject[]> => {
    const fresh =
      cached && nowMs >= cached.at && nowMs - cached.at < (refresh ? JWKS_REFRESH_MIN_MS : cacheMs);
    if (cached && fresh) return cached.keys;
    loading ??= (async () => {
      try {
        const response = await doFetch(jwksUrl, { headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`JWKS ${jwksUrl} answered ${response.status}`);
        const keys = keysFrom(await response.json());
        cached = { keys, at: nowMs };
        return keys;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  };

  return {
    async verify({ headers, rawBody, now }): Promise<VerifiedWebhook | undefined> {
      const requestId = header(headers, 'x-fal-webhook-request-id');
      const userId = header(headers, 'x-fal-webhook-user-id');
      const timestamp = header(headers, 'x-fal-webhook-timestamp');
      const signatureHex = header(headers, 'x-fal-webhook-signature');
      if (!requestId || !userId || !timestamp || !signatureHex) return undefined;
      if (!/^\d+$/.test(timestamp)) return undefined;
      if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return undefined;
      if (!/^[0-9a-fA-F]{128}$/.test(signatureHex)) return undefined;
      const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
      const message = Buffer.from(
        `${requestId}\n${userId}\n${timestamp}\n${createHash('sha256').update(body).digest('hex')}`,
        'utf8',
      );
      const signature = Buffer.from(signatureHex, 'hex');
      const verifiedBy = (keys: KeyObject[]) => keys.some((key) => verify(null, message, key, signature));
      if (!verifiedBy(await loadKeys(now.getTime()))) {
        const before = cached;
        const keys = await loadKeys(now.getTime(), true);
        if (cached === before || !verifiedBy(keys)) return undefined;
      }

      let parsed: { request_id?: unknown; status?: unknown; payload?: unknown; error?: unknown };
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return undefined;
      }
      if (parsed.request_id !== requestId) return undefined;
      if (parsed.status !== 'OK' && parsed.status !== 'ERROR') return undefined;
      return {
        requestId,
        status: parsed.status,
        payload: parsed.payload ?? null,
        ...(typeof parsed.error === 'string' ? { error: parsed.error } : {}),
      };
    },
  };
}
