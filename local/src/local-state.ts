/**
 * What the local cloud keeps about itself in its data directory, read before
 * anything starts: the state (pools, admin, where it runs) and the marker of
 * what was provisioned. Free of SDKs, so reading it costs nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/** What the local cloud remembers between starts, in `<dataDir>/local-cloud.json`. */
export interface LocalState {
  userPoolId: string;
  userPoolClientId: string;
  adminPoolId: string;
  adminPoolClientId: string;
  admin: { username: string; password: string };
  /**
   * Set while a local cloud runs on this data directory (removed when it
   * stops): its process and the endpoints and settings it gave the handlers,
   * for tools such as `npm run admin:create -- --local`.
   */
  running?: { pid: number; url: string; env: Record<string, string> };
}

/** The saved state, or undefined when missing or unreadable (then everything is created anew). */
export function readState(file: string): Partial<LocalState> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalState>;
  } catch {
    return undefined;
  }
}

/** Saves the state; it holds a password, so only the owner may read it. */
export function writeState(file: string, state: LocalState): void {
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/**
 * What a data directory was last provisioned with, in `<dataDir>/provisioned.json`:
 * for each step that a later start may skip, a hash of the definitions it
 * applied. A step runs again when its definitions' hash differs (the code
 * changed them) or the marker is missing; `--fresh` removes it with the data.
 */
export interface ProvisionMarker {
  /** The seed plans and default settings put in place. */
  seed?: string;
  /** The pools' and app clients' settings, as applied to the saved pools. */
  pools?: string;
  /** The plans (ids, amounts, cycles, price ids) whose prices were last synced with the embedded Stripe. */
  prices?: string;
}

/** A short, stable hash of JSON-able definitions (object keys in any order give the same hash). */
export function definitionHash(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, x]) => [k, canonical(x)]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex')
    .slice(0, 16);
}

/** The marker, or an empty one when missing or unreadable (then every step runs). */
export function readMarker(file: string): ProvisionMarker {
  if (!existsSync(file)) return {};
  try {
    const marker = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return marker && typeof marker === 'object' ? (marker as ProvisionMarker) : {};
  } catch {
    return {};
  }
}

/** Writes the marker whole (aside, then renamed): a start that dies midway leaves the old one or the new one. */
export function writeMarker(file: string, marker: ProvisionMarker): void {
  const staging = `${file}.${process.pid}`;
  writeFileSync(staging, `${JSON.stringify(marker, null, 2)}\n`);
  renameSync(staging, file);
}
