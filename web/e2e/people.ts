import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BrowserContext, Page } from 'playwright-core';
import { Agent, fetch as fetchFrom } from 'undici';
import { expect } from 'vitest';
import { cognitoIdentityProvider } from '../../functions/src/adapters/cognito/identity-provider';
import { dynamoAdminRepository } from '../../functions/src/adapters/dynamo/admin-repository';
import { createAdmin } from '../../functions/src/domain/accounts/admin';
import { authenticatorCode } from '../../functions/test/support/authenticator';

/**
 * An administrator of a journey's own, made as `npm run admin:create` makes
 * one (another journey changes the first admin's password).
 */
export async function journeyAdmin(
  cloudEnv: Record<string, string>,
  admin: { username: string; password: string },
): Promise<void> {
  const credentials = {
    accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID as string,
    secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY as string,
  };
  const cognito = new CognitoIdentityProviderClient({
    region: cloudEnv.AWS_REGION as string,
    endpoint: cloudEnv.COGNITO_ENDPOINT as string,
    credentials,
  });
  const dynamo = new DynamoDBClient({
    region: cloudEnv.AWS_REGION as string,
    endpoint: cloudEnv.DYNAMODB_ENDPOINT as string,
    credentials,
  });
  try {
    await createAdmin(
      {
        admins: dynamoAdminRepository(DynamoDBDocumentClient.from(dynamo), cloudEnv.TABLE_NAME as string),
        identity: cognitoIdentityProvider({
          client: cognito,
          userPoolId: cloudEnv.ADMIN_POOL_ID as string,
          clientId: cloudEnv.ADMIN_POOL_CLIENT_ID as string,
          issuer: `${cloudEnv.COGNITO_ENDPOINT}/${cloudEnv.ADMIN_POOL_ID}`,
        }),
        clock: { now: () => new Date() },
      },
      admin,
    );
  } finally {
    cognito.destroy();
    dynamo.destroy();
  }
}

/** The toast region's message with exactly this text. */
export const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });

/** A loopback address other than 127.0.0.1, picked at random. */
const loopbackAddress = () =>
  `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/**
 * A verified account made through the API and the local mailbox (the sign-up
 * screens have a journey of their own); returns the new user's id.
 */
export async function verifiedUser(
  baseUrl: string,
  account: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<string> {
  // Each person signs up from an address of their own (Linux answers all of 127.0.0.0/8 on loopback), as
  // people do: the sign-up limit per address (20 an hour) is for one client, not for a whole suite of journeys.
  const ownAddress = new Agent({ localAddress: loopbackAddress() });
  const api = (path: string, body: unknown) =>
    fetchFrom(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { origin: baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      dispatcher: ownAddress,
    });
  const registered = await api('/api/auth/register', {
    firstName: account.firstName ?? 'Nina',
    lastName: account.lastName ?? 'Simone',
    email: account.email,
    password: account.password,
    confirmPassword: account.password,
  });
  expect(registered.status).toBe(201);
  let token: string | undefined;
  for (let attempt = 0; attempt < 50 && !token; attempt++) {
    const mailbox = await fetch(`${baseUrl}/_dev/mail?to=${encodeURIComponent(account.email)}`, {
      headers: { accept: 'application/json' },
    });
    token = (await mailbox.text()).match(/\/verify-email\/([A-Za-z0-9_-]+)/)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  expect(token).toBeDefined();
  expect((await fetch(`${baseUrl}/api/auth/verify-email/${token}`)).status).toBe(200);
  const login = await api('/api/auth/login', { email: account.email, password: account.password });
  expect(login.status).toBe(200);
  const { id } = (await login.json()) as { id: string };
  await ownAddress.close();
  return id;
}

/** Signs in on the auth screen and waits for the signed-in home (the Create page). */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/auth`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${baseUrl}/`);
  await page.getByRole('tab', { name: 'Text to Music' }).waitFor();
}

/** The authenticator key each administrator set up in this run, read off the setup step as a person would. */
const authenticatorKeys = new Map<string, string>();

/**
 * The second step of an admin sign-in, after the password, as an admin does
 * it on screen: the first time, the key the setup step shows goes into the
 * authenticator (here, the tests' one); then its code; then the dashboard.
 * `onStep` looks at the step before it is answered.
 */
export async function answerSecondFactor(
  page: Page,
  baseUrl: string,
  username: string,
  onStep?: (step: 'setup' | 'code') => Promise<void>,
): Promise<void> {
  const setup = page.getByRole('heading', {
    level: 1,
    name: 'Set Up Two-Factor Authentication',
    exact: true,
  });
  const code = page.getByRole('heading', { level: 1, name: 'Two-Factor Authentication', exact: true });
  await setup.or(code).waitFor();
  const step = (await setup.isVisible()) ? 'setup' : 'code';
  if (step === 'setup') {
    const key = (await page.locator('dd code').textContent())?.replace(/\s/g, '');
    if (!key) throw new Error('The setup step shows no key');
    authenticatorKeys.set(username, key);
  }
  await onStep?.(step);
  const secret = authenticatorKeys.get(username);
  if (!secret) throw new Error(`${username} has an authenticator this run did not set up`);
  const form = page.getByRole('form', { name: /Two-Factor Authentication$/ });
  await form.getByLabel('Authentication Code').fill(await authenticatorCode(secret));
  await form.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${baseUrl}/admin`);
}

/**
 * Signs an administrator in through the API in a browser context (its cookie
 * jar), as the sign-in screen does: the password, then the authenticator's
 * code, setting it up with the key the first answer gives the first time.
 */
export async function signInAdminByApi(
  context: BrowserContext,
  baseUrl: string,
  admin: { username: string; password: string },
): Promise<void> {
  const post = (path: string, data: unknown) =>
    context.request.post(`${baseUrl}${path}`, { data, headers: { origin: baseUrl } });
  const login = await post('/api/admin/login', admin);
  expect(login.status()).toBe(200);
  const step = (await login.json()) as { secondFactor?: string; secret?: string };
  if (step.secondFactor === 'setup' && step.secret) authenticatorKeys.set(admin.username, step.secret);
  const secret = authenticatorKeys.get(admin.username);
  if (!secret) throw new Error(`${admin.username} has an authenticator this run did not set up`);
  expect((await post('/api/admin/login/code', { code: await authenticatorCode(secret) })).status()).toBe(200);
}

/** Signs an administrator in at /admin/login (password, then the second factor) and waits for the dashboard. */
export async function signInAdmin(
  page: Page,
  baseUrl: string,
  admin: { username: string; password: string },
): Promise<void> {
  await page.goto(`${baseUrl}/admin/login`);
  const login = page.getByRole('form', { name: 'Admin sign in' });
  await login.getByLabel('Username').fill(admin.username);
  await login.getByLabel('Password', { exact: true }).fill(admin.password);
  await login.getByRole('button', { name: 'Sign In' }).click();
  await answerSecondFactor(page, baseUrl, admin.username);
}
