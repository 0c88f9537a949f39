import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, seedPlans } from '@/testing/fixtures';
import {
  anonymous,
  deferredResponse,
  jsonResponse,
  type MockResponse,
  mockFetch,
} from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';
import { recordLocalStorage } from '@/testing/storage';

function renderAuth(routes: Record<string, MockResponse> = {}, path = '/auth') {
  const fetchMock = mockFetch({
    'GET /api/auth/user': anonymous(),
    'GET /api/public-tracks': jsonResponse([]),
    ...routes,
  });
  const rendered = renderApp(path);
  return { ...rendered, fetchMock };
}

const callsTo = (fetchMock: ReturnType<typeof mockFetch>, method: string, path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === path && (init?.method ?? 'GET') === method);

const bodyOf = (fetchMock: ReturnType<typeof mockFetch>, method: string, path: string) =>
  JSON.parse(String(callsTo(fetchMock, method, path)[0]?.[1]?.body));

async function signInForm() {
  return within(await screen.findByRole('form', { name: 'Sign in' }));
}

async function openSignUp(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('tab', { name: 'Sign Up' }));
  return within(screen.getByRole('form', { name: 'Sign up' }));
}

describe('auth screen', () => {
  it('shows the Get Started card with Sign In selected, and the marketing column', async () => {
    renderAuth();

    expect(await screen.findByRole('heading', { name: 'Get Started' })).toBeDefined();
    expect(screen.getByText('Create your account or sign in to continue')).toBeDefined();
    expect(screen.getByText('Turn text descriptions into full songs')).toBeDefined();
    expect(screen.getByText('Transform and remix existing audio')).toBeDefined();
    expect(screen.getByText('Export high-quality tracks ready for streaming')).toBeDefined();
    expect(screen.getByRole('tab', { name: 'Sign In' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('false');
    expect(screen.getByRole('tabpanel', { name: 'Sign In' })).toBeDefined();
  });

  it('switches tabs by click and with the arrow keys', async () => {
    const { user } = renderAuth();
    const signInTab = await screen.findByRole('tab', { name: 'Sign In' });

    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.getByRole('form', { name: 'Sign up' })).toBeDefined();
    expect(screen.queryByRole('form', { name: 'Sign in' })).toBeNull();

    await user.keyboard('{ArrowRight}');
    expect(signInTab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(signInTab);
    expect(signInTab.getAttribute('tabindex')).toBe('0');
    expect(screen.getByRole('tab', { name: 'Sign Up' }).getAttribute('tabindex')).toBe('-1');

    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows a spinner while the auth state loads', async () => {
    const pending = deferredResponse(() => anonymous());
    renderAuth({ 'GET /api/auth/user': pending.handler });

    expect(await screen.findByText('Checking your sign-in status')).toBeDefined();
    pending.respond();
    expect(await screen.findByRole('heading', { name: 'Get Started' })).toBeDefined();
  });

  it('sends a signed-in user home', async () => {
    const { router } = renderAuth({ 'GET /api/auth/user': jsonResponse(makeUser()) });

    await waitFor(() => expect(router.location.pathname).toBe('/'));
  });

  describe('sign in', () => {
    it('shows each field message and sends nothing when the form is empty', async () => {
      const { user, fetchMock } = renderAuth();
      const form = await signInForm();

      await user.click(form.getByRole('button', { name: 'Sign In' }));

      // The form's schema loads with its first use (here, the click), then the messages show.
      expect(await form.findByText('Please enter a valid email address')).toBeDefined();
      expect(form.getByText('Password is required')).toBeDefined();
      expect(form.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(form.getByLabelText('Email'));
      expect(callsTo(fetchMock, 'POST', '/api/auth/login')).toHaveLength(0);

      await user.type(form.getByLabelText('Email'), 'not-an-email');
      expect(form.queryByText('Please enter a valid email address')).toBeNull();
    });

    it('shows and hides the password', async () => {
      const { user } = renderAuth();
      const form = await signInForm();
      const password = form.getByLabelText('Password');
      expect(password.getAttribute('type')).toBe('password');

      await user.click(form.getByRole('button', { name: 'Show password' }));
      expect(password.getAttribute('type')).toBe('text');

      await user.click(form.getByRole('button', { name: 'Hide password' }));
      expect(password.getAttribute('type')).toBe('password');
    });

    it('reads Signing In... while pending, then stores the user, welcomes and goes home', async () => {
      const login = deferredResponse(() => jsonResponse(makeUser()));
      const { user, router, fetchMock } = renderAuth({ 'POST /api/auth/login': login.handler });
      const form = await signInForm();

      await user.type(form.getByLabelText('Email'), ' Ada@Example.com ');
      await user.type(form.getByLabelText('Password'), 'correct horse');
      await user.click(form.getByRole('button', { name: 'Sign In' }));

      const pendingButton = await form.findByRole('button', { name: 'Signing In...' });
      expect((pendingButton as HTMLButtonElement).disabled).toBe(true);
      expect(bodyOf(fetchMock, 'POST', '/api/auth/login')).toEqual({
        email: 'ada@example.com',
        password: 'correct horse',
      });
      const init = callsTo(fetchMock, 'POST', '/api/auth/login')[0]?.[1];
      expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');

      login.respond();

      await waitFor(() => expect(router.location.pathname).toBe('/'));
      const toast = await findToast();
      expect(within(toast).getByText('Welcome back!')).toBeDefined();
      expect(within(toast).getByText('You have successfully logged in.')).toBeDefined();
      // The header reads the stored user without asking the server again.
      expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Ada' })).toBeDefined();
      expect(callsTo(fetchMock, 'GET', '/api/auth/user')).toHaveLength(1);
    });

    it('greets a new account on its first sign-in with Welcome!, and with Welcome back! after that', async () => {
      recordLocalStorage();
      window.sessionStorage.clear();
      const newcomer = makeUser({
        id: 'new-user',
        createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
      });
      const first = renderAuth({ 'POST /api/auth/login': jsonResponse(newcomer) });
      let form = await signInForm();
      await first.user.type(form.getByLabelText('Email'), 'ada@example.com');
      await first.user.type(form.getByLabelText('Password'), 'correct horse');
      await first.user.click(form.getByRole('button', { name: 'Sign In' }));

      await waitFor(() => expect(first.router.location.pathname).toBe('/'));
      let toast = await findToast();
      expect(within(toast).getByText('Welcome!')).toBeDefined();
      expect(within(toast).getByText('You have successfully logged in.')).toBeDefined();
      first.unmount();

      const again = renderAuth({ 'POST /api/auth/login': jsonResponse(newcomer) });
      form = await signInForm();
      await again.user.type(form.getByLabelText('Email'), 'ada@example.com');
      await again.user.type(form.getByLabelText('Password'), 'correct horse');
      await again.user.click(form.getByRole('button', { name: 'Sign In' }));

      await waitFor(() => expect(again.router.location.pathname).toBe('/'));
      toast = await findToast();
      expect(within(toast).getByText('Welcome back!')).toBeDefined();
    });

    it('sends an unverified user to /check-email and remembers the address', async () => {
      const storage = recordLocalStorage({ pendingVerificationFirstName: 'Stale' });
      const { user, router } = renderAuth({
        'POST /api/auth/login': jsonResponse({ message: 'Please verify your email before signing in.' }, 403),
      });
      const form = await signInForm();

      await user.type(form.getByLabelText('Email'), 'ada@example.com');
      await user.type(form.getByLabelText('Password'), 'secret123');
      await user.click(form.getByRole('button', { name: 'Sign In' }));

      await waitFor(() => expect(router.location.pathname).toBe('/check-email'));
      expect(storage.writes).toContainEqual(['pendingVerificationEmail', 'ada@example.com']);
      // An older first name must not greet this address.
      expect(await screen.findByText(/Hi there/)).toBeDefined();
      const toast = await findToast();
      expect(toast.dataset.variant).toBe('destructive');
      expect(within(toast).getByText('Email Verification Required')).toBeDefined();
      expect(
        within(toast).getByText('Please check your email and click the verification link before logging in.'),
      ).toBeDefined();
      expect(await screen.findByText('ada@example.com')).toBeDefined();
    });

    it.each([
      [jsonResponse({ message: 'Invalid email or password' }, 401), 'Invalid email or password'],
      [
        jsonResponse({ message: 'Too many attempts. Please wait a few minutes and try again.' }, 429),
        'Too many attempts. Please wait a few minutes and try again.',
      ],
      [new Response('Bad gateway', { status: 502 }), 'Invalid email or password'],
    ])('shows Login failed with the server message or the default', async (answer, text) => {
      const { user, router } = renderAuth({ 'POST /api/auth/login': answer });
      const form = await signInForm();

      await user.type(form.getByLabelText('Email'), 'ada@example.com');
      await user.type(form.getByLabelText('Password'), 'wrong');
      await user.click(form.getByRole('button', { name: 'Sign In' }));

      const toast = await findToast();
      expect(within(toast).getByText('Login failed')).toBeDefined();
      expect(within(toast).getByText(text)).toBeDefined();
      expect(router.location.pathname).toBe('/auth');
      expect(form.getByRole('button', { name: 'Sign In' })).toBeDefined();
    });
  });

  describe('sign up', () => {
    it('shows every field message', async () => {
      const { user, fetchMock } = renderAuth();
      const form = await openSignUp(user);

      await user.click(form.getByRole('button', { name: 'Create Account' }));

      expect(form.getByText('First name is required')).toBeDefined();
      expect(form.getByText('Last name is required')).toBeDefined();
      expect(form.getByText('Please enter a valid email address')).toBeDefined();
      expect(form.getByText('Password must be at least 8 characters')).toBeDefined();
      expect(form.getByText('Please confirm your password')).toBeDefined();
      expect(document.activeElement).toBe(form.getByLabelText('First Name'));

      await user.type(form.getByLabelText('Password'), 'long enough');
      await user.type(form.getByLabelText('Confirm Password'), 'different');
      await user.click(form.getByRole('button', { name: 'Create Account' }));

      expect(form.getByText("Passwords don't match")).toBeDefined();
      expect(form.getByLabelText('Confirm Password').getAttribute('aria-describedby')).toBe(
        form.getByText("Passwords don't match").id,
      );
      expect(form.queryByText('Password must be at least 8 characters')).toBeNull();
      expect(callsTo(fetchMock, 'POST', '/api/auth/register')).toHaveLength(0);
    });

    it('has separate show/hide toggles for the password and its confirmation', async () => {
      const { user } = renderAuth();
      const form = await openSignUp(user);
      const password = form.getByLabelText('Password');
      const confirm = form.getByLabelText('Confirm Password');

      await user.click(form.getByRole('button', { name: 'Show confirm password' }));
      expect(confirm.getAttribute('type')).toBe('text');
      expect(password.getAttribute('type')).toBe('password');

      await user.click(form.getByRole('button', { name: 'Show password' }));
      expect(password.getAttribute('type')).toBe('text');
      await user.click(form.getByRole('button', { name: 'Hide confirm password' }));
      expect(confirm.getAttribute('type')).toBe('password');
      expect(password.getAttribute('type')).toBe('text');
    });

    it('reads Creating Account... while pending, then saves the pending address and goes to /check-email', async () => {
      const storage = recordLocalStorage();
      const registration = deferredResponse(() =>
        jsonResponse(
          {
            email: 'grace@example.com',
            firstName: 'Grace',
            message: 'Registration successful. Please check your email to verify your account.',
          },
          201,
        ),
      );
      const { user, router, fetchMock } = renderAuth({ 'POST /api/auth/register': registration.handler });
      const form = await openSignUp(user);

      await user.type(form.getByLabelText('First Name'), 'Grace');
      await user.type(form.getByLabelText('Last Name'), 'Hopper');
      await user.type(form.getByLabelText('Email'), 'grace@example.com');
      await user.type(form.getByLabelText('Password'), 'compilers!');
      await user.type(form.getByLabelText('Confirm Password'), 'compilers!');
      await user.click(form.getByRole('button', { name: 'Create Account' }));

      expect(await form.findByRole('button', { name: 'Creating Account...' })).toBeDefined();
      expect(bodyOf(fetchMock, 'POST', '/api/auth/register')).toEqual({
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.com',
        password: 'compilers!',
        confirmPassword: 'compilers!',
      });

      registration.respond();

      await waitFor(() => expect(router.location.pathname).toBe('/check-email'));
      expect(storage.writes).toEqual([
        ['pendingVerificationEmail', 'grace@example.com'],
        ['pendingVerificationFirstName', 'Grace'],
      ]);
      const toast = await findToast();
      expect(within(toast).getByText('Registration Successful!')).toBeDefined();
      expect(within(toast).getByText('Please check your email to verify your account.')).toBeDefined();
      expect(await screen.findByText(/Hi Grace/)).toBeDefined();
    });

    it.each([
      [
        jsonResponse({ message: 'An account with this email already exists.' }, 409),
        'An account with this email already exists.',
      ],
      [new Response('', { status: 500, statusText: 'Internal Server Error' }), 'Failed to create account'],
    ])('shows Registration failed with the server message or the default', async (answer, text) => {
      const { user, router } = renderAuth({ 'POST /api/auth/register': answer });
      const form = await openSignUp(user);

      await user.type(form.getByLabelText('First Name'), 'Ada');
      await user.type(form.getByLabelText('Last Name'), 'Lovelace');
      await user.type(form.getByLabelText('Email'), 'ada@example.com');
      await user.type(form.getByLabelText('Password'), 'engines1');
      await user.type(form.getByLabelText('Confirm Password'), 'engines1');
      await user.click(form.getByRole('button', { name: 'Create Account' }));

      const toast = await findToast();
      expect(within(toast).getByText('Registration failed')).toBeDefined();
      expect(within(toast).getByText(text)).toBeDefined();
      expect(router.location.pathname).toBe('/auth');
    });
  });

  describe('forgot password', () => {
    it('opens a modal dialog that Escape closes, returning focus', async () => {
      const { user } = renderAuth();
      const form = await signInForm();
      const trigger = form.getByRole('button', { name: 'Forgot Password?' });

      await user.click(trigger);

      const dialog = await screen.findByRole('dialog', { name: 'Reset Your Password' });
      expect(dialog.getAttribute('aria-modal')).toBe('true');
      expect(
        within(dialog).getByText(
          "Enter your email address and we'll send you a link to reset your password.",
        ),
      ).toBeDefined();
      expect(document.activeElement).toBe(within(dialog).getByLabelText('Email'));

      // Tab wraps inside the dialog.
      await user.tab();
      await user.tab();
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).toBeNull();
      await waitFor(() => expect(document.activeElement).toBe(trigger));
    });

    it('validates, reads Sending... while pending, confirms, closes and clears', async () => {
      const reset = deferredResponse(() =>
        jsonResponse({
          message: "If an account with that email exists, we've sent password reset instructions.",
        }),
      );
      const { user, fetchMock } = renderAuth({ 'POST /api/auth/request-password-reset': reset.handler });
      const form = await signInForm();
      await user.click(form.getByRole('button', { name: 'Forgot Password?' }));
      const dialog = within(await screen.findByRole('dialog', { name: 'Reset Your Password' }));

      await user.click(dialog.getByRole('button', { name: 'Send Reset Link' }));
      expect(dialog.getByText('Please enter a valid email address')).toBeDefined();
      expect(callsTo(fetchMock, 'POST', '/api/auth/request-password-reset')).toHaveLength(0);

      await user.type(dialog.getByLabelText('Email'), 'ada@example.com');
      await user.click(dialog.getByRole('button', { name: 'Send Reset Link' }));
      expect(await dialog.findByRole('button', { name: 'Sending...' })).toBeDefined();
      expect(bodyOf(fetchMock, 'POST', '/api/auth/request-password-reset')).toEqual({
        email: 'ada@example.com',
      });

      reset.respond();

      const toast = await findToast();
      expect(within(toast).getByText('Reset Email Sent')).toBeDefined();
      expect(
        within(toast).getByText(
          "If an account with that email exists, we've sent password reset instructions.",
        ),
      ).toBeDefined();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

      await user.click(form.getByRole('button', { name: 'Forgot Password?' }));
      const reopened = within(await screen.findByRole('dialog', { name: 'Reset Your Password' }));
      expect((reopened.getByLabelText('Email') as HTMLInputElement).value).toBe('');
    });

    it('keeps the dialog open and shows Reset Failed on an error', async () => {
      const { user } = renderAuth({
        'POST /api/auth/request-password-reset': jsonResponse(
          { message: 'Too many attempts. Please wait a few minutes and try again.' },
          429,
        ),
      });
      const form = await signInForm();
      await user.click(form.getByRole('button', { name: 'Forgot Password?' }));
      const dialog = within(await screen.findByRole('dialog', { name: 'Reset Your Password' }));

      await user.type(dialog.getByLabelText('Email'), 'ada@example.com');
      await user.click(dialog.getByRole('button', { name: 'Send Reset Link' }));

      const toast = await findToast();
      expect(within(toast).getByText('Reset Failed')).toBeDefined();
      expect(
        within(toast).getByText('Too many attempts. Please wait a few minutes and try again.'),
      ).toBeDefined();
      expect(await screen.findByRole('dialog', { name: 'Reset Your Password' })).toBeDefined();
    });

    it('uses the default text when the server gives no message, and Cancel closes', async () => {
      const { user } = renderAuth({
        'POST /api/auth/request-password-reset': new Response('', { status: 503, statusText: 'Unavailable' }),
      });
      const form = await signInForm();
      await user.click(form.getByRole('button', { name: 'Forgot Password?' }));
      const dialog = within(await screen.findByRole('dialog', { name: 'Reset Your Password' }));

      await user.type(dialog.getByLabelText('Email'), 'ada@example.com');
      await user.click(dialog.getByRole('button', { name: 'Send Reset Link' }));
      expect(within(await findToast()).getByText('Failed to send reset email')).toBeDefined();

      await user.click(dialog.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  describe('a plan chosen on Pricing', () => {
    const intent = '/pricing?subscribe=basic&cycle=monthly';
    const withIntent = `/auth?next=${encodeURIComponent(intent)}`;
    const plans = { 'GET /api/plans': jsonResponse(seedPlans()) };
    const line = 'Sign in or create an account to subscribe to Basic, billed monthly ($9/month).';

    it('says what the visitor was subscribing to, with the price from the plan list', async () => {
      renderAuth(plans, '/auth?next=%2Fpricing%3Fsubscribe%3Dpremium%26cycle%3Dyearly');

      expect(
        await screen.findByText(
          'Sign in or create an account to subscribe to Premium, billed yearly ($190/year).',
        ),
      ).toBeDefined();
      expect(screen.getByText('Create your account or sign in to continue')).toBeDefined();
    });

    it.each([
      ['no next path', '/auth'],
      ['a next path that is not a plan', `/auth?next=${encodeURIComponent('/profile')}`],
      ['an unknown plan', `/auth?next=${encodeURIComponent('/pricing?subscribe=gold&cycle=monthly')}`],
      ['the Free plan', `/auth?next=${encodeURIComponent('/pricing?subscribe=free&cycle=monthly')}`],
      ['a plan on another site', `/auth?next=${encodeURIComponent(`//evil.example${intent}`)}`],
    ])('says nothing about a plan for %s', async (_case, path) => {
      renderAuth(plans, path);

      await screen.findByRole('heading', { name: 'Get Started' });
      await waitFor(() => expect(screen.queryByText(/to subscribe to/)).toBeNull());
    });

    it('goes to the return path after signing in, and forgets a saved one', async () => {
      const storage = recordLocalStorage({ pendingVerificationNext: intent });
      const { user, router } = renderAuth(
        { ...plans, 'POST /api/auth/login': jsonResponse(makeUser()) },
        withIntent,
      );
      await screen.findByText(line);
      const form = await signInForm();

      await user.type(form.getByLabelText('Email'), 'ada@example.com');
      await user.type(form.getByLabelText('Password'), 'correct horse');
      await user.click(form.getByRole('button', { name: 'Sign In' }));

      await waitFor(() => expect(router.location.pathname).toBe('/pricing'));
      expect(storage.data.has('pendingVerificationNext')).toBe(false);
    });

    it.each([
      ['another host', '//evil.example/pricing'],
      ['an absolute address', 'https://evil.example/'],
      ['a backslash host', '/\\evil.example'],
      ['a script', 'javascript:alert(1)'],
    ])('goes home after signing in when next points to %s', async (_case, next) => {
      const { user, router } = renderAuth(
        { 'POST /api/auth/login': jsonResponse(makeUser()) },
        `/auth?next=${encodeURIComponent(next)}`,
      );
      const form = await signInForm();

      await user.type(form.getByLabelText('Email'), 'ada@example.com');
      await user.type(form.getByLabelText('Password'), 'correct horse');
      await user.click(form.getByRole('button', { name: 'Sign In' }));

      await waitFor(() => expect(router.location.pathname).toBe('/'));
      expect(router.location.search).toBe('');
    });

    it('sends a signed-in user straight to the return path', async () => {
      const { router } = renderAuth({ ...plans, 'GET /api/auth/user': jsonResponse(makeUser()) }, withIntent);

      await waitFor(() => expect(router.location.pathname).toBe('/pricing'));
    });

    it('sends a signed-in user home when the return path is off-site', async () => {
      const { router } = renderAuth(
        { 'GET /api/auth/user': jsonResponse(makeUser()) },
        `/auth?next=${encodeURIComponent('https://evil.example/')}`,
      );

      await waitFor(() => expect(router.location.pathname).toBe('/'));
    });

    it('keeps the return path beside the pending verification when signing up', async () => {
      const storage = recordLocalStorage();
      const { user, router } = renderAuth(
        {
          ...plans,
          'POST /api/auth/register': jsonResponse({ email: 'grace@example.com', firstName: 'Grace' }, 201),
        },
        withIntent,
      );
      const form = await openSignUp(user);

      await user.type(form.getByLabelText('First Name'), 'Grace');
      await user.type(form.getByLabelText('Last Name'), 'Hopper');
      await user.type(form.getByLabelText('Email'), 'grace@example.com');
      await user.type(form.getByLabelText('Password'), 'compilers!');
      await user.type(form.getByLabelText('Confirm Password'), 'compilers!');
      await user.click(form.getByRole('button', { name: 'Create Account' }));

      await waitFor(() => expect(router.location.pathname).toBe('/check-email'));
      expect(storage.writes).toContainEqual(['pendingVerificationNext', intent]);
      // The check-email page reads the address and name, and leaves the return path for the verify-email page.
      await screen.findByText(/Hi Grace/);
      expect(storage.data.get('pendingVerificationNext')).toBe(intent);
      expect(storage.data.has('pendingVerificationEmail')).toBe(false);
      expect(screen.getByRole('link', { name: 'Go to Sign In' }).getAttribute('href')).toBe(withIntent);
    });

    it('keeps the return path when an unverified user is sent to check their email', async () => {
      const storage = recordLocalStorage({ pendingVerificationNext: '/profile' });
      const { user, router } = renderAuth(
        {
          ...plans,
          'POST /api/auth/login': jsonResponse(
            { message: 'Please verify your email before signing in.' },
            403,
          ),
        },
        withIntent,
      );
      const form = await signInForm();

      await user.type(form.getByLabelText('Email'), 'ada@example.com');
      await user.type(form.getByLabelText('Password'), 'secret123');
      await user.click(form.getByRole('button', { name: 'Sign In' }));

      await waitFor(() => expect(router.location.pathname).toBe('/check-email'));
      expect(storage.data.get('pendingVerificationNext')).toBe(intent);
    });

    it('forgets an older return path when signing up without one', async () => {
      const storage = recordLocalStorage({ pendingVerificationNext: intent });
      const { user, router } = renderAuth({
        'POST /api/auth/register': jsonResponse({ email: 'grace@example.com', firstName: 'Grace' }, 201),
      });
      const form = await openSignUp(user);

      await user.type(form.getByLabelText('First Name'), 'Grace');
      await user.type(form.getByLabelText('Last Name'), 'Hopper');
      await user.type(form.getByLabelText('Email'), 'grace@example.com');
      await user.type(form.getByLabelText('Password'), 'compilers!');
      await user.type(form.getByLabelText('Confirm Password'), 'compilers!');
      await user.click(form.getByRole('button', { name: 'Create Account' }));

      await waitFor(() => expect(router.location.pathname).toBe('/check-email'));
      expect(storage.data.has('pendingVerificationNext')).toBe(false);
      expect((await screen.findByRole('link', { name: 'Go to Sign In' })).getAttribute('href')).toBe('/auth');
    });
  });
});
