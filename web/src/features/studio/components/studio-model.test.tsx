import { screen, within } from '@testing-library/react';
import type { EditKind, Track } from '@tunesmith/shared/tracks';
import { describe, expect, it } from 'vitest';
import { makeSubscriber, makeTrack, makeUser, modelCatalogue } from '@/testing/fixtures';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import { StudioDialog } from './studio-dialog';

const track = (model: string | undefined) =>
  makeTrack({ id: 'neon', title: 'Neon Nights', duration: 90, ...(model ? { model } : {}) });

function renderDialog(
  kind: EditKind,
  parent: Track,
  { user = makeSubscriber({ generationsUsedThisMonth: 2 }), catalogue = modelCatalogue({ paid: true }) } = {},
) {
  mockFetch({
    'GET /api/auth/user': jsonResponse(user),
    'GET /api/models': jsonResponse(catalogue),
  });
  renderWithProviders(<StudioDialog kind={kind} track={parent} onClose={() => undefined} />);
  return within(screen.getByRole(kind === 'variation' ? 'alertdialog' : 'dialog'));
}

describe('which model a studio action runs, said before anything is spent', () => {
  it('extends a track with its own model where it can', async () => {
    const dialog = renderDialog('extend', track('ace-step'));

    expect(
      await dialog.findByText('Made with ACE-Step. ACE-Step will extend it: 1 generation.'),
    ).toBeDefined();
    expect(dialog.getByText('Uses 1 of your 30 generations this week. You have 28 left.')).toBeDefined();
  });

  it('names the model that does it when the track’s own cannot', async () => {
    const dialog = renderDialog('repaint', track('cassetteai'));

    expect(
      await dialog.findByText('Made with CassetteAI. ACE-Step will repaint a section of it: 1 generation.'),
    ).toBeDefined();
  });

  it('reads a track from before the choice as made with ACE-Step', async () => {
    const dialog = renderDialog('extend', track(undefined));

    expect(
      await dialog.findByText('Made with ACE-Step. ACE-Step will extend it: 1 generation.'),
    ).toBeDefined();
  });

  it('makes a variation with the track’s own model at its cost', async () => {
    const dialog = renderDialog('variation', track('minimax-music-2.5'));

    expect(
      await dialog.findByText(
        'Made with MiniMax Music 2.5. MiniMax Music 2.5 will make a variation of it: 3 generations.',
      ),
    ).toBeDefined();
    expect(dialog.getByText('Uses 3 of your 30 generations this week. You have 28 left.')).toBeDefined();
    expect(dialog.getByRole('button', { name: 'Make Variation' })).toBeDefined();
  });

  it('makes a variation with the site’s default when the plan no longer offers the track’s model', async () => {
    const dialog = renderDialog('variation', track('minimax-music-2.5'), {
      user: makeUser({ generationsUsedThisMonth: 1 }),
      catalogue: { ...modelCatalogue(), defaultModel: 'cassetteai' },
    });

    expect(
      await dialog.findByText(
        'Made with MiniMax Music 2.5. CassetteAI will make a variation of it: 1 generation.',
      ),
    ).toBeDefined();
  });

  it('makes a variation of a restyle only with a model that restyles', async () => {
    const catalogue = modelCatalogue({ paid: true });
    const dialog = renderDialog(
      'variation',
      makeTrack({ id: 'neon', title: 'Neon Nights', type: 'audio-to-music', model: 'ace-step' }),
      {
        catalogue: {
          defaultModel: 'cassetteai',
          models: catalogue.models.filter((m) => m.id !== 'ace-step'),
        },
      },
    );

    expect(
      await dialog.findByText('Made with ACE-Step. No model on your plan can make a variation of it.'),
    ).toBeDefined();
  });

  it('offers the plans instead of an action the week has too few generations left for', async () => {
    const dialog = renderDialog('variation', track('stable-audio-2.5'), {
      user: makeSubscriber({ generationsUsedThisMonth: 27 }),
    });

    expect(
      await dialog.findByText(
        'Uses 4 of your 30 generations this week. You have 3 left: not enough for this.',
      ),
    ).toBeDefined();
    expect(dialog.queryByRole('button', { name: 'Make Variation' })).toBeNull();
    expect(dialog.getByRole('link', { name: 'See Plans' }).getAttribute('href')).toBe('/pricing');
  });

  it('says when no model the user may use can do it, and offers only Close and the plans', async () => {
    const catalogue = modelCatalogue({ paid: true });
    const dialog = renderDialog('extend', track('minimax-music-2'), {
      catalogue: { ...catalogue, models: catalogue.models.filter((m) => m.id !== 'ace-step') },
    });

    expect(
      await dialog.findByText('Made with MiniMax Music 2.0. No model on your plan can extend it.'),
    ).toBeDefined();
    expect(dialog.queryByRole('button', { name: 'Extend' })).toBeNull();
    expect(dialog.getByRole('button', { name: 'Close' })).toBeDefined();
    expect(dialog.getByRole('link', { name: 'See Plans' })).toBeDefined();
  });
});
