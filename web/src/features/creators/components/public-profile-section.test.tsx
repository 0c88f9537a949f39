import { screen, waitFor } from '@testing-library/react';
import { creatorMessages } from '@tunesmith/shared/community';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { jsonResponse } from '@/testing/mock-fetch';
import { renderAppAs } from '@/testing/render';

describe('Profile → Public profile', () => {
  it('chooses a handle; a taken one is shown on the handle field', async () => {
    let taken = true;
    const { user } = renderAppAs('/profile', makeUser(), {
      'GET /api/user/public-profile': jsonResponse({ message: 'none' }, 404),
      'PUT /api/user/public-profile': async (request) => {
        const body = (await request.json()) as { handle: string; displayName: string };
        if (taken) {
          taken = false;
          return jsonResponse({ message: creatorMessages.handleTaken }, 409);
        }
        return jsonResponse({ ...body, bio: null, createdAt: '2026-11-29T10:00:00.000Z' });
      },
    });
    const handle = await screen.findByRole('textbox', { name: 'Handle' });
    await user.type(handle, 'ada');
    expect(screen.getByText(/\/@ada$/)).toBeDefined();
    await user.type(screen.getByRole('textbox', { name: 'Display name' }), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Go public' }));
    expect(await screen.findByText(creatorMessages.handleTaken)).toBeDefined();
    expect(handle.getAttribute('aria-invalid')).toBe('true');

    await user.clear(handle);
    await user.type(handle, 'ada2');
    await user.click(screen.getByRole('button', { name: 'Go public' }));
    expect(await screen.findByRole('link', { name: 'View your page' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'View your page' }).getAttribute('href')).toBe('/@ada2');
    // The form went public: focus is on the way to the new page, not lost with the Go public button.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('link', { name: 'View your page' })),
    );
  });

  it('refuses a reserved handle before asking the server', async () => {
    const { user, calls } = renderAppAs('/profile', makeUser(), {
      'GET /api/user/public-profile': jsonResponse({ message: 'none' }, 404),
    });
    await user.type(await screen.findByRole('textbox', { name: 'Handle' }), 'Admin');
    await user.type(screen.getByRole('textbox', { name: 'Display name' }), 'A');
    await user.click(screen.getByRole('button', { name: 'Go public' }));
    expect(await screen.findByText(creatorMessages.handleReserved)).toBeDefined();
    expect(calls('PUT', '/api/user/public-profile')).toHaveLength(0);
  });

  it('goes private after a confirmation', async () => {
    const { user } = renderAppAs('/profile', makeUser(), {
      'GET /api/user/public-profile': jsonResponse({
        handle: 'ada',
        displayName: 'Ada',
        bio: null,
        createdAt: '2026-11-29T10:00:00.000Z',
      }),
      'DELETE /api/user/public-profile': () => new Response(null, { status: 204 }),
    });
    await user.click(await screen.findByRole('button', { name: 'Go private' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Go private?' });
    expect(dialog.textContent).toContain('@ada');
    await user.click(screen.getAllByRole('button', { name: 'Go private' }).at(-1) as HTMLElement);
    expect(await screen.findByRole('button', { name: 'Go public' })).toBeDefined();
    // The Go private button went with the public form: focus is on the handle, to choose one again.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Handle' })));
  });
});
