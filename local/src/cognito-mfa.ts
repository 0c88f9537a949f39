import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';

/**
 * Cognito's authenticator (software-token) MFA, which cognito-local lacks for
 * the calls the app makes: the MFA_SETUP and SOFTWARE_TOKEN_MFA challenges of
 * AdminInitiateAuth, AssociateSoftwareToken and VerifySoftwareToken with a
 * sign-in's session (or a user's access token), AdminRespondToAuthChallenge,
 * and AdminSetUserMFAPreference (docs/decisions/036-administrators-second-factor.md).
 * The Cognito proxy (cognito-proxy.ts) answers these calls with this module,
 * with Cognito's shapes and error names; the password itself is still
 * checked by cognito-local, and the tokens are still its own.
 */

/** Cognito's TOTP: RFC 6238 with SHA-1, six digits, 30-second steps, one step early or late accepted. */
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/** Cognito's length of a session: the client's AuthSessionValidity (3 to 15 minutes), 3 when unset. */
const DEFAULT_SESSION_MINUTES = 3;

/** A Cognito error: `__type` and message. */
export class MfaError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const invalidSession = () => new MfaError('NotAuthorizedException', 'Invalid session for the user.');
const expiredSession = () =>
  new MfaError('NotAuthorizedException', 'Invalid session for the user, session is expired.');

/** One identity's authenticator, as Cognito keeps it. */
interface UserMfa {
  /** The verified key (base32). */
  secret?: string;
  /** A key handed out by AssociateSoftwareToken with an access token, not yet verified. */
  pendingSecret?: string;
  friendlyDeviceName?: string;
  /** The last 30-second step whose code was accepted: Cognito takes each code once. */
  lastStep?: number;
  /** Software-token MFA is on for the identity (UserMFASettingList). */
  enabled: boolean;
  /** It is the preferred factor (PreferredMfaSetting). */
  preferred: boolean;
}

interface MfaFile {
  version: 1;
  /** pool id -> sub -> the identity's authenticator. */
  users: Record<string, Record<string, UserMfa>>;
  /** client id -> minutes a sign-in's session lives (cognito-local does not keep AuthSessionValidity). */
  sessionMinutes: Record<string, number>;
}

/**
 * Authenticator keys and session lengths, kept in a JSON file (owner-only)
 * in the data directory, so a restarted local cloud still asks each admin for
 * the code of the authenticator they set up.
 */
export class MfaStore {
  private data: MfaFile = { version: 1, users: {}, sessionMinutes: {} };

  constructor(private readonly file: string) {
    if (!existsSync(file)) return;
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<MfaFile>;
      if (parsed.version === 1) {
        this.data = { version: 1, users: parsed.users ?? {}, sessionMinutes: parsed.sessionMinutes ?? {} };
      }
    } catch {
      // An unreadable file only means the admins set up their authenticators again.
    }
  }

  user(poolId: string, sub: string): UserMfa {
    return { enabled: false, preferred: false, ...this.data.users[poolId]?.[sub] };
  }

  setUser(poolId: string, sub: string, mfa: UserMfa): void {
    this.data.users[poolId] ??= {};
    (this.data.users[poolId] as Record<string, UserMfa>)[sub] = mfa;
    this.save();
  }

  forgetUser(poolId: string, sub: string): void {
    if (!this.data.users[poolId]?.[sub]) return;
    delete this.data.users[poolId][sub];
    this.save();
  }

  sessionMinutes(clientId: string): number {
    return this.data.sessionMinutes[clientId] ?? DEFAULT_SESSION_MINUTES;
  }

  setSessionMinutes(clientId: string, minutes: number | undefined): void {
    if (minutes === undefined) delete this.data.sessionMinutes[clientId];
    else this.data.sessionMinutes[clientId] = minutes;
    this.save();
  }

  private save(): void {
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.data)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

/** A new authenticator key as Cognito makes one: 20 random bytes, base32 (32 characters). */
export const newAuthenticatorKey = (): string => new Secret({ size: 20 }).base32;

/**
 * The 30-second step whose code `code` is, when it is the key's code now or
 * one step early or late (as Cognito accepts); undefined when it is not.
 */
export function authenticatorStep(secret: string, code: unknown, now = Date.now()): number | undefined {
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) return undefined;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    timestamp: now,
    window: 1,
    ...TOTP_SETTINGS,
  });
  return delta === null ? undefined : TOTP.counter({ period: TOTP_SETTINGS.period, timestamp: now }) + delta;
}

/** The key's code at `now` (what an authenticator app shows). */
export const authenticatorCodeAt = (secret: string, now = Date.now()): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: now, ...TOTP_SETTINGS });

/** A sign-in whose password was right, waiting for its second factor. */
export interface MfaSignIn {
  poolId: string;
  clientId: string;
  sub: string;
  username: string;
  challenge: 'MFA_SETUP' | 'SOFTWARE_TOKEN_MFA';
  /** The tokens of the password check, held back until the second factor is answered. */
  refreshToken: string;
  accessToken: string;
  /** Step MFA_SETUP: the key handed out, then whether a code of it was verified. */
  secret?: string;
  verified?: boolean;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/**
 * Sign-in sessions in memory (Cognito's are opaque and last minutes; a
 * restart ends them, as their expiry would). Each call that answers a step
 * issues the next session string and retires the one it was given.
 */
export class MfaSessions {
  private readonly sessions = new Map<string, MfaSignIn>();

  constructor(
    private readonly now: () => number = Date.now,
    /** Told of sign-ins that ended unanswered, whose held-back tokens can be revoked. */
    private readonly abandoned: (signIn: MfaSignIn) => void = () => {},
  ) {}

  /** Starts a sign-in; returns its session string. */
  start(signIn: Omit<MfaSignIn, 'expiresAt'>, minutes: number): string {
    this.sweep();
    return this.issue({ ...signIn, expiresAt: this.now() + minutes * 60_000 });
  }

  /** The live sign-in of `session`, else Cognito's NotAuthorizedException. */
  get(session: unknown): MfaSignIn {
    const signIn = typeof session === 'string' ? this.sessions.get(session) : undefined;
    if (!signIn) throw invalidSession();
    if (signIn.expiresAt <= this.now()) {
      this.sessions.delete(session as string);
      this.abandoned(signIn);
      throw expiredSession();
    }
    return signIn;
  }

  /** Retires `session` and issues the next one for the same sign-in. */
  next(session: string, signIn: MfaSignIn): string {
    this.sessions.delete(session);
    return this.issue(signIn);
  }

  /** Ends a sign-in (answered, or its identity deleted). */
  end(session: string): void {
    this.sessions.delete(session);
  }

  /** Ends every sign-in of an identity. */
  endAllOf(poolId: string, sub: string): void {
    for (const [session, signIn] of this.sessions) {
      if (signIn.poolId === poolId && signIn.sub === sub) this.sessions.delete(session);
    }
  }

  private issue(signIn: MfaSignIn): string {
    // Shaped like Cognito's: long, opaque, within its 20 to 2048 characters.
    const session = `AYAB${randomBytes(96).toString('base64url')}`;
    this.sessions.set(session, signIn);
    return session;
  }

  private sweep(): void {
    const now = this.now();
    for (const [session, signIn] of this.sessions) {
      if (signIn.expiresAt > now) continue;
      this.sessions.delete(session);
      this.abandoned(signIn);
    }
  }
}

/** The challenge a pool asks for after a right password, or none. */
export function challengeAfterPassword(
  mfaConfiguration: string | undefined,
  softwareTokenEnabled: boolean,
  user: UserMfa,
): 'MFA_SETUP' | 'SOFTWARE_TOKEN_MFA' | undefined {
  const hasAuthenticator = Boolean(user.secret && user.enabled);
  if (mfaConfiguration === 'ON') {
    if (hasAuthenticator) return 'SOFTWARE_TOKEN_MFA';
    if (!softwareTokenEnabled) {
      // Cognito would offer SMS; the local cloud's pools have none to offer.
      throw new MfaError(
        'InvalidUserPoolConfigurationException',
        'No MFA method is enabled for the user pool.',
      );
    }
    return 'MFA_SETUP';
  }
  if (mfaConfiguration === 'OPTIONAL' && hasAuthenticator) return 'SOFTWARE_TOKEN_MFA';
  return undefined;
}

/** Cognito's answer when the pool does not offer authenticators. */
export const softwareTokenNotEnabled = () =>
  new MfaError(
    'SoftwareTokenMFANotFoundException',
    'Software Token MFA has not been enabled by the userPool.',
  );

/** Cognito's answers to a wrong code: VerifySoftwareToken, and a SOFTWARE_TOKEN_MFA challenge. */
export const verifyCodeMismatch = () =>
  new MfaError('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA');
export const challengeCodeMismatch = () =>
  new MfaError('CodeMismatchException', 'Invalid code received for user');
/** Cognito's answer to a code already accepted (by a sign-in, or by VerifySoftwareToken). */
export const codeUsedOnce = () =>
  new MfaError('ExpiredCodeException', 'Your software token has already been used once.');
