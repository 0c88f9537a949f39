import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { answerSecondFactor } from './people';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const email = `journey-${Date.now().toString(36)}@example.com`;
const firstPassword = 'first password 1';
const secondPassword = 'second password 2';
const thirdPassword = 'third password 3';

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text);

/** Opens the local mailbox and follows the newest link to `path` in a mail to `to`. */
async function followMailedLink(page: Page, to: string, path: string): Promise<void> {
  await page.goto(`${baseUrl}/_dev/mail`);
  const mail = page.locator('article', { hasText: to }).first();
  await mail.waitFor();
  const link = mail.locator(`a[href*="${path}"]`).first();
  const href = await link.getAttribute('href');
  expect(href?.startsWith(`${baseUrl}${path}`)).toBe(true);
  await link.click();
  await page.waitForURL((url) => url.pathname.startsWith(path));
}

async function signIn(page: Page, address: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/auth`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email', { exact: true }).fill(address);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

describe('a person makes an account and looks after it', () => {
  it('signs up, verifies from the mailbox, signs in, changes the password, logs out, resets it and signs in', async () => {
    const page = await browser.newPage();

    // Sign up
    await page.goto(`${baseUrl}/auth`);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const signUp = page.getByRole('form', { name: 'Sign up' });
    await signUp.getByLabel('First Name', { exact: true }).fill('Grace');
    await signUp.getByLabel('Last Name', { exact: true }).fill('Hopper');
    await signUp.getByLabel('Email', { exact: true }).fill(email);
    await signUp.getByLabel('Password', { exact: true }).fill(firstPassword);
    await signUp.getByLabel('Confirm Password', { exact: true }).fill('mismatch');
    await signUp.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText("Passwords don't match").waitFor();
    await expectNoSeriousViolations(page, 'sign up, with an error');
    await signUp.getByLabel('Confirm Password', { exact: true }).fill(firstPassword);
    await signUp.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${baseUrl}/check-email`);
    await page.getByText(email).first().waitFor();
    await page.getByText(/Hi Grace/).waitFor();
    await expectNoSeriousViolations(page, 'check email');

    // Signing in before verifying is refused with the spec's toast and sends the person back to check-email.
    await signIn(page, email, firstPassword);
    await toast(page, 'Email Verification Required').waitFor();
    await page.waitForURL(`${baseUrl}/check-email`);

    // Verify from the mailbox
    await followMailedLink(page, email, '/verify-email/');
    await page.getByRole('heading', { name: 'Email Verified!' }).waitFor();
    await page.getByText(/Welcome, Grace/).waitFor();
    await expectNoSeriousViolations(page, 'email verified');
    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await page.waitForURL(`${baseUrl}/auth`);

    // Sign in
    await signIn(page, email, firstPassword);
    await page.waitForURL(`${baseUrl}/`);
    // The first sign-in of a new account is not a return.
    await toast(page, 'Welcome!').waitFor();
    const chip = page.getByRole('banner').getByRole('link', { name: 'Grace' });
    await chip.waitFor();

    // A second browser signed in as the same person, to see its session end later.
    const other = await browser.newPage();
    await signIn(other, email, firstPassword);
    await other.waitForURL(`${baseUrl}/`);

    // Profile and password change
    await chip.click();
    await page.waitForURL(`${baseUrl}/profile`);
    const main = page.getByRole('main');
    await main.getByLabel('Last Name', { exact: true }).waitFor();
    expect(await main.getByLabel('Last Name', { exact: true }).inputValue()).toBe('Hopper');
    expect(await main.getByLabel('Current Email', { exact: true }).inputValue()).toBe(email);
    await expectNoSeriousViolations(page, 'profile');
    const passwordForm = page.getByRole('form', { name: 'Update password' });
    await passwordForm.getByLabel('Current Password', { exact: true }).fill(firstPassword);
    await passwordForm.getByLabel('New Password', { exact: true }).fill(secondPassword);
    await passwordForm.getByLabel('Confirm New Password', { exact: true }).fill(secondPassword);
    await passwordForm.getByRole('button', { name: 'Update Password' }).click();
    await toast(page, 'Password updated successfully').waitFor();

    // This browser is still signed in; the other one is not.
    await page.reload();
    await page.getByRole('form', { name: 'Update password' }).waitFor();
    const otherMe = await other.request.get(`${baseUrl}/api/auth/user`);
    expect(otherMe.status()).toBe(401);
    await other.close();

    // Logout
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).waitFor();
    expect((await page.request.get(`${baseUrl}/api/auth/user`)).status()).toBe(401);

    // Forgot password
    await page.goto(`${baseUrl}/auth`);
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Your Password' });
    await dialog.getByLabel('Email', { exact: true }).waitFor();
    await expectNoSeriousViolations(page, 'forgot password dialog');
    await dialog.getByLabel('Email', { exact: true }).fill(email);
    await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
    await toast(page, 'Reset Email Sent').waitFor();

    // Reset from the mailbox
    await followMailedLink(page, email, '/reset-password/');
    const resetForm = page.getByRole('form', { name: 'Set a new password' });
    await resetForm.waitFor();
    await expectNoSeriousViolations(page, 'reset password');
    await resetForm.getByLabel('New Password', { exact: true }).fill(thirdPassword);
    await resetForm.getByLabel('Confirm Password', { exact: true }).fill(thirdPassword);
    await resetForm.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { name: 'Password Reset Complete' }).waitFor();
    await expectNoSeriousViolations(page, 'password reset complete');

    // The old password no longer works; the new one does.
    await page.waitForTimeout(1100);
    await signIn(page, email, secondPassword);
    await toast(page, 'Login failed').waitFor();
    await expectNoSeriousViolations(page, 'sign in, refused (with its toast)');
    await signIn(page, email, thirdPassword);
    await page.waitForURL(`${baseUrl}/`);
    await toast(page, 'Welcome back!').waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Grace' }).waitFor();

    // Email change: the password proves it is the owner; nothing moves until the new address confirms.
    const newEmail = `moved-${email}`;
    await page.goto(`${baseUrl}/profile`);
    const emailForm = page.getByRole('form', { name: 'Update email' });
    await emailForm.getByLabel('New Email', { exact: true }).fill(newEmail);
    await emailForm.getByLabel('Current Password', { exact: true }).fill(thirdPassword);
    await emailForm.getByRole('button', { name: 'Update Email' }).click();
    await toast(page, 'Check your new inbox').waitFor();
    expect(await page.getByRole('main').getByLabel('Current Email', { exact: true }).inputValue()).toBe(
      email,
    );
    await followMailedLink(page, newEmail, '/verify-email/');
    await page.getByText(`Your email is now ${newEmail}. Sign in with it from now on.`).waitFor();
    await expectNoSeriousViolations(page, 'email change confirmed');
    await page.goto(`${baseUrl}/profile`);
    await expect
      .poll(() => page.getByRole('main').getByLabel('Current Email', { exact: true }).inputValue())
      .toBe(newEmail);
    await page.close();
  });
});

describe('an administrator signs in and changes the password', () => {
  it('is guarded, signs in, changes the password, and every admin session ends', async () => {
    const page = await browser.newPage();

    // Guard: the admin area sends a visitor to the admin sign-in.
    await page.goto(`${baseUrl}/admin/users`);
    await page.waitForURL(`${baseUrl}/admin/login`);

    const form = page.getByRole('form', { name: 'Admin sign in' });
    await form.getByLabel('Username', { exact: true }).fill(admin.username);
    await form.getByLabel('Password', { exact: true }).fill('not the password');
    await form.getByRole('button', { name: 'Sign In' }).click();
    await toast(page, 'Login failed').waitFor();
    await expectNoSeriousViolations(page, 'admin sign in, refused');

    await form.getByLabel('Password', { exact: true }).fill(admin.password);
    await form.getByRole('button', { name: 'Sign In' }).click();
    // The first admin's first sign-in sets up an authenticator; a wrong code says so and keeps the step.
    await answerSecondFactor(page, baseUrl, admin.username, async (step) => {
      expect(step).toBe('setup');
      const heading = page.getByRole('heading', { level: 1, name: 'Set Up Two-Factor Authentication' });
      expect(await heading.evaluate((element) => element === document.activeElement)).toBe(true);
      const setup = page.getByRole('form', { name: 'Set Up Two-Factor Authentication' });
      await setup.getByLabel('Authentication Code').fill('000000');
      await setup.getByRole('button', { name: 'Verify' }).click();
      await toast(page, 'Login failed').waitFor();
      await setup.getByText('Invalid code').waitFor();
      await expectNoSeriousViolations(page, 'admin sign in, wrong code');
    });
    expect(await page.getByTestId('admin-username').textContent()).toContain(admin.username);
    expect(await page.getByTestId('admin-role').textContent()).toContain('admin');

    // A signed-in admin visiting the sign-in page goes to the area.
    await page.goto(`${baseUrl}/admin/login`);
    await page.waitForURL(`${baseUrl}/admin`);

    // A second admin session.
    const other = await browser.newPage();
    await other.goto(`${baseUrl}/admin/login`);
    await other
      .getByRole('form', { name: 'Admin sign in' })
      .getByLabel('Username', { exact: true })
      .fill(admin.username);
    await other
      .getByRole('form', { name: 'Admin sign in' })
      .getByLabel('Password', { exact: true })
      .fill(admin.password);
    await other.getByRole('form', { name: 'Admin sign in' }).getByRole('button', { name: 'Sign In' }).click();
    await answerSecondFactor(other, baseUrl, admin.username, async (step) => expect(step).toBe('code'));

    // Change the password from Site Settings, Security.
    const newPassword = `${admin.password}-2`;
    await page.goto(`${baseUrl}/admin/settings?tab=security`);
    const change = page.getByRole('form', { name: 'Change admin password' });
    await change.waitFor();
    await expectNoSeriousViolations(page, 'admin settings, security');
    await change.getByLabel('Current Password', { exact: true }).fill(admin.password);
    await change.getByLabel('New Password', { exact: true }).fill('12345678901');
    await change.getByLabel('Confirm New Password', { exact: true }).fill('12345678901');
    await change.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('New password must be at least 12 characters').waitFor();
    await change.getByLabel('New Password', { exact: true }).fill(newPassword);
    await change.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
    await change.getByRole('button', { name: 'Update Password' }).click();
    await page.waitForURL(`${baseUrl}/admin/login`);

    // Every admin session has ended, this one and the other.
    expect((await page.request.get(`${baseUrl}/api/admin/user`)).status()).toBe(401);
    expect((await other.request.get(`${baseUrl}/api/admin/user`)).status()).toBe(401);
    await other.reload();
    await other.waitForURL(`${baseUrl}/admin/login`);
    await other.close();

    // The new password works.
    await page.waitForTimeout(1100);
    const again = page.getByRole('form', { name: 'Admin sign in' });
    await again.getByLabel('Username', { exact: true }).fill(admin.username);
    await again.getByLabel('Password', { exact: true }).fill(newPassword);
    await again.getByRole('button', { name: 'Sign In' }).click();
    await answerSecondFactor(page, baseUrl, admin.username);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${baseUrl}/admin/login`);
    expect((await page.request.get(`${baseUrl}/api/admin/user`)).status()).toBe(401);
    await page.close();
  });
});
