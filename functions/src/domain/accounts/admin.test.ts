import { describe, expect, it } from 'vitest';
import {
  fakeClock,
  fakeIdentityProvider,
  inMemoryAdmins,
  inMemoryLimiter,
  inMemoryRevokedSessions,
  testSecrets,
} from '../../testing/in-memory-accounts';
import { DomainError } from '../errors';
import { logout } from './account-service';
import { adminLogin, authenticateAdmin, changeAdminPassword, createAdmin } from './admin';

function setup() {
  const clock = fakeClock();
  const identity = fakeIdentityProvider(clock);
  const admins = inMemoryAdmins();
  const deps = {
    admins,
    identity,
    revoked: inMemoryRevokedSessions(clock),
    secrets: testSecrets,
    limiter: inMemoryLimiter(),
    clock,
  };
  return { deps, clock, identity, admins };
}

describe('admin accounts', () => {
  it('creates an admin who can sign in by username at once', async () => {
    const s = setup();
    const admin = await createAdmin(s.deps, { username: 'root', password: 'secret1' });
    expect(admin).toMatchObject({ username: 'root', role: 'admin', isActive: true });

    const { tokens } = await adminLogin(s.deps, { username: 'root', password: 'secret1' }, '10.0.0.1');
    expect((await authenticateAdmin(s.deps, tokens))?.admin.username).toBe('root');
    expect(s.admins.all.get('root')?.lastLoginAt).not.toBeNull();
  });

  it('signing out ends that admin session at once, a copied access token included', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password: 'secret1' });
    const { tokens } = await adminLogin(s.deps, { username: 'root', password: 'secret1' }, '10.0.0.1');
    await logout(s.deps, tokens);
    expect(await authenticateAdmin(s.deps, { accessToken: tokens.accessToken })).toBeUndefined();
    expect(await authenticateAdmin(s.deps, tokens)).toBeUndefined();
  });

  it('refuses a second admin with the same username', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password: 'secret1' });
    await expect(createAdmin(s.deps, { username: 'root', password: 'other12' })).rejects.toThrow(DomainError);
  });

  it('refuses wrong passwords and inactive admins with Invalid credentials', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password: 'secret1' });
    await expect(adminLogin(s.deps, { username: 'root', password: 'nope' }, '10.0.0.1')).rejects.toThrow(
      'Invalid credentials',
    );
    s.admins.all.set('root', {
      ...(s.admins.all.get('root') as NonNullable<ReturnType<typeof s.admins.all.get>>),
      isActive: false,
    });
    await expect(adminLogin(s.deps, { username: 'root', password: 'secret1' }, '10.0.0.1')).rejects.toThrow(
      'Invalid credentials',
    );
  });

  it('does not accept a user-pool token as an admin session', async () => {
    const s = setup();
    const users = fakeIdentityProvider(s.clock);
    await users.createUser({ username: 'root', password: 'secret1' });
    const [subject] = users.identities.keys();
    await users.confirmUser(subject as string, '');
    const result = await users.signIn('root', 'secret1');
    if (!result.ok) throw new Error('sign in failed');
    await createAdmin(s.deps, { username: 'root', password: 'secret1' });
    expect(await authenticateAdmin(s.deps, result.tokens)).toBeUndefined();
  });

  it('changing the password checks the current one and ends every admin session', async () => {
    const s = setup();
    await createAdmin(s.deps, { username: 'root', password: 'secret1' });
    const a = await adminLogin(s.deps, { username: 'root', password: 'secret1' }, '10.0.0.1');
    const b = await adminLogin(s.deps, { username: 'root', password: 'secret1' }, '10.0.0.2');

    await expect(
      changeAdminPassword(s.deps, a.admin, { currentPassword: 'wrong', newPassword: 'secret2' }, '10.0.0.1'),
    ).rejects.toThrow('Current password is incorrect');
    await changeAdminPassword(
      s.deps,
      a.admin,
      { currentPassword: 'secret1', newPassword: 'secret2' },
      '10.0.0.1',
    );

    expect(await authenticateAdmin(s.deps, a.tokens)).toBeUndefined();
    expect(await authenticateAdmin(s.deps, b.tokens)).toBeUndefined();
    s.clock.advance(1000);
    const again = await adminLogin(s.deps, { username: 'root', password: 'secret2' }, '10.0.0.1');
    expect(await authenticateAdmin(s.deps, again.tokens)).toBeDefined();
  });
});
