import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keptInCognito } from './emulators';

const saved = {
  userPoolId: 'local_users',
  userPoolClientId: 'users-client',
  adminPoolId: 'local_admins',
  adminPoolClientId: 'admins-client',
  admin: { username: 'admin', password: 'kept-password' },
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** cognito-local's files as it writes them (`.cognito/db`), with what `change` alters. */
function cognitoFiles(change: (files: Record<string, unknown>) => void = () => {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kept-cognito-'));
  dirs.push(dir);
  const files: Record<string, unknown> = {
    'local_users.json': { Users: {}, Options: { Id: 'local_users' } },
    'local_admins.json': { Users: { admin: { Username: 'admin' } }, Options: { Id: 'local_admins' } },
    'clients.json': {
      Clients: {
        'users-client': { ClientId: 'users-client', UserPoolId: 'local_users' },
        'admins-client': { ClientId: 'admins-client', UserPoolId: 'local_admins' },
      },
    },
  };
  change(files);
  const db = path.join(dir, '.cognito', 'db');
  mkdirSync(db, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(path.join(db, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

describe('keptInCognito', () => {
  it('gives back the saved pools, clients and admin when its files hold them all', () => {
    expect(keptInCognito(cognitoFiles(), saved)).toEqual(saved);
  });

  it('gives nothing when the saved state is incomplete or missing', () => {
    const dir = cognitoFiles();
    expect(keptInCognito(dir, undefined)).toBeUndefined();
    expect(keptInCognito(dir, { ...saved, admin: undefined })).toBeUndefined();
    expect(keptInCognito(dir, { ...saved, adminPoolClientId: undefined })).toBeUndefined();
  });

  it('gives nothing when a pool, a client or the admin is missing from its files', () => {
    const noUserPool = cognitoFiles((files) => delete files['local_users.json']);
    const noAdmin = cognitoFiles((files) => {
      files['local_admins.json'] = { Users: { someone: {} } };
    });
    const clientElsewhere = cognitoFiles((files) => {
      files['clients.json'] = {
        Clients: {
          'users-client': { UserPoolId: 'local_admins' },
          'admins-client': { UserPoolId: 'local_admins' },
        },
      };
    });
    const noClients = cognitoFiles((files) => delete files['clients.json']);

    for (const dir of [noUserPool, noAdmin, clientElsewhere, noClients]) {
      expect(keptInCognito(dir, saved)).toBeUndefined();
    }
  });

  it('gives nothing when a file is half-written (cognito-local rewrites whole files)', () => {
    const dir = cognitoFiles((files) => {
      files['local_admins.json'] = '{"Users": {"admin": {';
    });
    expect(keptInCognito(dir, saved)).toBeUndefined();
  });
});
