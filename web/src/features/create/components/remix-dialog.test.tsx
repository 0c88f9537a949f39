import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeTrack } from '@/testing/fixtures';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import RemixDialog from './remix-dialog';

function renderDialog() {
  const started: string[] = [];
  let closed = 0;
  const view = renderWithProviders(
    <RemixDialog
      track={makeTrack({ id: 'src', title: 'Harbour', remixable: true })}
      onClose={() => {
        closed += 1;
      }}
      onStarted={(id) => started.push(id)}
    />,
  );
  return { ...view, started, closed: () => closed };
}

describe('the Remix dialog', () => {
  it("sends restyle's fields for the source and opens the started remix", async () => {
    let body: unknown;
    mockFetch({
      'POST /api/generation/src/remix': async (request) => {
        body = await request.json();
        return jsonResponse({ generationId: 'remix-1' }, 201);
      },
    });
    const { user, started, closed } = renderDialog();
    const dialog = within(screen.getByRole('dialog', { name: 'Remix "Harbour"' }));

    await user.type(dialog.getByLabelText('Genre Tags'), 'jazz');
    await user.type(dialog.getByLabelText('Title (optional)'), 'Harbour in Blue');
    await user.click(dialog.getByRole('button', { name: 'Generate Music' }));

    await waitFor(() => expect(started).toEqual(['remix-1']));
    expect(body).toEqual({ tags: 'jazz', lyrics: '', title: 'Harbour in Blue', visibility: 'public' });
    expect(closed()).toBe(1);
  });

  it("shows the server's reason when the remix is refused, and stays open", async () => {
    mockFetch({
      'POST /api/generation/src/remix': jsonResponse({ message: 'This track cannot be remixed.' }, 403),
    });
    const { user, started, closed } = renderDialog();
    const dialog = within(screen.getByRole('dialog'));

    await user.type(dialog.getByLabelText('Genre Tags'), 'jazz');
    await user.click(dialog.getByRole('button', { name: 'Generate Music' }));

    expect(await screen.findByText('This track cannot be remixed.')).toBeDefined();
    expect(started).toEqual([]);
    expect(closed()).toBe(0);
  });
});
