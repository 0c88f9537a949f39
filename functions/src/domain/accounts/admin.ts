import { authMessages } from '@tunesmith/shared/auth';
import { conflict, unauthorized, validationError } from '../errors';
import type { Clock, IdentityProvider, RateLimiter, RevokedSessions, Secrets, Tokens } from './ports';
import { guardedPasswordCheck, verifySession } from './session-rules';

/** An administrator's profile (spec 2 section 3, admin_users), beside the admin pool. */
export interface AdminUser {
  id: string;
  username: string;
  email: string | null;
  role: string;
  isActive: boolean;
  lastLoginAt: string | null;
  /** Epoch seconds; admin tokens issued before it are refused. */
  sessionsValidAfter: number;
  createdAt: string;
  updatedAt: string;
}

export interface AdminRepository {
  getByUsername(username: string): Promise<AdminUser | undefined>;
  /** Throws `conflict` when the username is taken. */
  create(admin: AdminUser): Promise<void>;
  update(
    username: string,
    changes: Partial<Pick<AdminUser, 'lastLoginAt' | 'sessionsValidAfter' | 'updatedAt'>>,
  ): Promise<void>;
}

export interface AdminDeps {
  admins: AdminRepository;
  identity: IdentityProvider;
  revoked: RevokedSessions;
  secrets: Pick<Secrets, 'hash'>;
  limiter: RateLimiter;
  clock: Clock & { sleep(ms: number): Promise<void> };
}

const nowSeconds = (clock: Clock) => Math.floor(clock.now().getTime() / 1000);

/** Signs an administrator in by username. */
export async function adminLogin(
  deps: AdminDeps,
  input: { username: string; password: string },
  address: string,
): Promise<{ admin: AdminUser; tokens: Tokens }> {
  const result = await guardedPasswordCheck(
    deps,
    { action: 'admin-login', account: input.username, address },
    () => deps.identity.signIn(input.username, input.password),
    (r) => !r.ok,
  );
  if (!result.ok) throw unauthorized(authMessages.adminInvalidCredentials);
  const admin = await deps.admins.getByUsername(input.username);
  if (!admin?.isActive) {
    if (result.tokens.refreshToken) await deps.identity.revokeRefreshToken(result.tokens.refreshToken);
    throw unauthorized(authMessages.adminInvalidCredentials);
  }
  const stamp = deps.clock.now().toISOString();
  await deps.admins.update(admin.username, { lastLoginAt: stamp, updatedAt: stamp });
  return { admin: { ...admin, lastLoginAt: stamp }, tokens: result.tokens };
}

/** The administrator behind admin session tokens, refreshing when needed. */
export async function authenticateAdmin(
  deps: Pick<AdminDeps, 'admins' | 'identity' | 'revoked' | 'secrets'>,
  session: { accessToken?: string; refreshToken?: string },
): Promise<{ admin: AdminUser; refreshed?: Tokens } | undefined> {
  const verified = await verifySession(deps, session);
  if (!verified) return undefined;
  const { claims, refreshed } = verified;
  const admin = await deps.admins.getByUsername(claims.username);
  if (!admin?.isActive || claims.issuedAt < admin.sessionsValidAfter) return undefined;
  return refreshed ? { admin, refreshed } : { admin };
}

/** Changes an administrator's password and ends every admin session of theirs, this one included. */
export async function changeAdminPassword(
  deps: AdminDeps,
  admin: AdminUser,
  input: { currentPassword: string; newPassword: string },
  address: string,
): Promise<void> {
  const check = await guardedPasswordCheck(
    deps,
    { action: 'admin-password-check', account: admin.username, address },
    () => deps.identity.signIn(admin.username, input.currentPassword),
    (r) => !r.ok,
  );
  if (!check.ok) throw validationError(authMessages.currentPasswordWrong);
  if (check.tokens.refreshToken) await deps.identity.revokeRefreshToken(check.tokens.refreshToken);
  await deps.identity.setPassword(admin.id, input.newPassword);
  const stamp = deps.clock.now().toISOString();
  await deps.admins.update(admin.username, {
    sessionsValidAfter: nowSeconds(deps.clock) + 1,
    updatedAt: stamp,
  });
  await deps.identity.signOutEverywhere(admin.id);
}

/** Creates an administrator who can sign in at once (used by `npm run admin:create` and the local cloud). */
export async function createAdmin(
  deps: Pick<AdminDeps, 'admins' | 'identity'> & { clock: Clock },
  input: { username: string; password: string; email?: string; role?: string },
): Promise<AdminUser> {
  if (await deps.admins.getByUsername(input.username))
    throw conflict(`Admin ${input.username} already exists.`);
  const { subject } = await deps.identity.createUser({
    username: input.username,
    ...(input.email ? { email: input.email } : {}),
    password: input.password,
  });
  await deps.identity.setPassword(subject, input.password);
  const stamp = deps.clock.now().toISOString();
  const admin: AdminUser = {
    id: subject,
    username: input.username,
    email: input.email ?? null,
    role: input.role ?? 'admin',
    isActive: true,
    lastLoginAt: null,
    sessionsValidAfter: 0,
    createdAt: stamp,
    updatedAt: stamp,
  };
  try {
    await deps.admins.create(admin);
  } catch (error) {
    await deps.identity.deleteUser(subject);
    throw error;
  }
  return admin;
}
