import { screen, waitFor, within } from '@testing-library/react';
import { ownershipMessages } from '@tunesmith/shared/ownership';
import { describe, expect, it } from 'vitest';
import type { User } from '@/lib/auth';
import { makeSubscriber, makeUser } from '@/testing/fixtures';
import { jsonResponse, type MockResponse } from '@/testing/mock-fetch';
import { findToast, renderAppAs } from '@/testing/render';

const password = 'analytical-engine';

/** The profile page, its danger zone, and the delete dialog opened from it. */
async function openDialog(initial: User = makeUser(), routes: Record<string, MockResponse> = {}) {
  const rendered = renderAppAs('/profile', initial, routes);
  const zone = within(await screen.findByRole('region', { name: 'Danger Zone' }));
  await rendered.user.click(zone.getByRole('button', { name: 'Delete Account' }));
  const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete your account?' }));
  const confirm = () => dialog.getByRole('button', { name: 'Delete My Account' }) as HTMLButtonElement;
  return { ...rendered, dialog, confirm };
}

describe('delete account', () => {
  it('says what goes and keeps the button off until the password and the typed confirmation are both there', async () => {
    const { user, dialog, confirm, calls } = await openDialog();

    expect(dialog.getByText(/every track you made, with its audio files/)).toBeDefined();
    expect(dialog.getByText(/your uploads and your exports/)).toBeDefined();
    expect(dialog.queryByText(ownershipMessages.subscriptionEndsNow)).toBeNull();
    expect(confirm().disabled).toBe(true);
    // The password field has focus when the dialog opens.
    expect(document.activeElement).toBe(dialog.getByLabelText('Current Password'));

    await user.type(dialog.getByLabelText('Current Password'), password);
    expect(confirm().disabled).toBe(true);
    await user.type(dialog.getByLabelText('Type DELETE to confirm'), 'delete');
    expect(confirm().disabled).toBe(true);
    await user.clear(dialog.getByLabelText('Type DELETE to confirm'));
    await user.type(dialog.getByLabelText('Type DELETE to confirm'), 'DELETE');
    expect(confirm().disabled).toBe(false);
    await user.clear(dialog.getByLabelText('Current Password'));
    expect(confirm().disabled).toBe(true);
    expect(calls('DELETE', '/api/user')).toHaveLength(0);

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('tells a subscriber that the subscription ends at once, before they agree', async () => {
    const { dialog } = await openDialog(makeSubscriber({ planStatus: 'cancelled' }));

    expect(dialog.getByText(ownershipMessages.subscriptionEndsNow)).toBeDefined();
  });

  it('shows a wrong password on its field and stays open', async () => {
    const { user, dialog, confirm } = await openDialog(makeUser(), {
      'DELETE /api/user': jsonResponse({ message: 'Current password is incorrect' }, 400),
    });

    await user.type(dialog.getByLabelText('Current Password'), 'wrong one');
    await user.type(dialog.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(confirm());

    expect(await dialog.findByText('Current password is incorrect')).toBeDefined();
    expect(dialog.getByLabelText('Current Password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alertdialog')).toBeDefined();
    // Focus is on the field to put right, not dropped to the page.
    await waitFor(() => expect(document.activeElement).toBe(dialog.getByLabelText('Current Password')));
  });

  it('shows a refusal such as too many attempts in the dialog', async () => {
    const limited = 'Too many attempts. Please wait a few minutes and try again.';
    const { user, dialog, confirm } = await openDialog(makeUser(), {
      'DELETE /api/user': jsonResponse({ message: limited }, 429),
    });

    await user.type(dialog.getByLabelText('Current Password'), password);
    await user.type(dialog.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(confirm());

    expect((await dialog.findByRole('alert')).textContent).toBe(limited);
    expect(confirm().disabled).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(confirm()));
  });

  it('on success sends the password, signs out here and goes home with a toast', async () => {
    const { user, dialog, confirm, calls, state, router } = await openDialog(makeUser(), {
      'DELETE /api/user': () => {
        state.user = null;
        return jsonResponse({ message: ownershipMessages.accountDeleting }, 202);
      },
    });

    await user.type(dialog.getByLabelText('Current Password'), password);
    await user.type(dialog.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(confirm());

    const toast = within(await findToast());
    expect(toast.getByText('Account deleted')).toBeDefined();
    expect(toast.getByText(ownershipMessages.accountDeleting)).toBeDefined();
    await waitFor(() => expect(router.location.pathname).toBe('/'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(JSON.parse(String(calls('DELETE', '/api/user')[0]?.[1]?.body))).toEqual({
      currentPassword: password,
    });
    // Signed out: the header offers signing in again.
    expect(await screen.findByRole('link', { name: 'Sign In' })).toBeDefined();
  });
});
