import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, modelCatalogue } from '@/testing/fixtures';
import {
  callsMade,
  deferredResponse,
  jsonResponse,
  type MockResponse,
  mockFetch,
} from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import { CreatePage } from './create-page';

/** The visible tab panel: both forms stay mounted once visited. */
const panel = () => within(screen.getByRole('tabpanel'));

function notifications() {
  return within(screen.getByRole('region', { name: 'Notifications (F8)' }));
}

/** The Create page for a free-plan user, with the catalogue (or another answer) and a generate call that records its body. */
function renderCreate(models: MockResponse = jsonResponse(modelCatalogue())) {
  const sent: { text: unknown[]; audio: unknown[] } = { text: [], audio: [] };
  const fetchMock = mockFetch({
    'GET /api/auth/user': jsonResponse(makeUser()),
    'GET /api/models': models,
    'POST /api/generate-text-to-music': async (request) => {
      sent.text.push(await request.json());
      return jsonResponse({ generationId: 'gen-1' }, 201);
    },
    'POST /api/generate-audio-to-music': async (request) => {
      sent.audio.push(await request.json());
      return jsonResponse({ generationId: 'gen-2' }, 201);
    },
  });
  return { ...renderWithProviders(<CreatePage />), sent, fetchMock };
}

const modelGroup = () => screen.findByRole('radiogroup', { name: 'Model' });

describe('the create form’s model', () => {
  it('offers each model with what it is best for and its cost, the default chosen, the rest described', async () => {
    renderCreate();
    const group = within(await modelGroup());

    const ace = group.getByRole('radio', { name: 'ACE-Step' });
    expect(ace.getAttribute('aria-checked')).toBe('true');
    const described = (radio: HTMLElement) =>
      (radio.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' | ');
    expect(described(ace)).toBe(
      'Songs with your own lyrics or instrumentals, and every studio action | Sings your lyrics, or plays an instrumental; 0:05 to 4:00. | 1 generation',
    );
    expect(described(group.getByRole('radio', { name: 'CassetteAI' }))).toContain(
      'Instrumental only; 0:10 to 3:00.',
    );
    expect(described(group.getByRole('radio', { name: 'MiniMax Music 2.0' }))).toContain(
      'Always sings: lyrics required; chooses its own length.',
    );
  });

  it('shows a model the plan does not offer as off, with the plans that have it and a way to them', async () => {
    renderCreate();
    const group = within(await modelGroup());

    const premiumOnly = group.getByRole('radio', { name: 'MiniMax Music 2.5' });
    expect(premiumOnly).toHaveProperty('disabled', true);
    const plans = document.getElementById(`${premiumOnly.id}-plans`) as HTMLElement;
    expect(plans.textContent).toBe('In Basic and Premium. Upgrade');
    expect(premiumOnly.getAttribute('aria-describedby')).toContain(plans.id);
    expect(within(plans).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/pricing');
    expect(premiumOnly.getAttribute('aria-describedby')).toContain(`${premiumOnly.id}-cost`);
    expect(document.getElementById(`${premiumOnly.id}-cost`)?.textContent).toBe('3 generations');
    expect(group.getByRole('radio', { name: 'MiniMax Music 2.0' })).toHaveProperty('disabled', false);
  });

  it('preselects the site’s default model', async () => {
    renderCreate(jsonResponse({ ...modelCatalogue(), defaultModel: 'cassetteai' }));
    const group = within(await modelGroup());

    expect(group.getByRole('radio', { name: 'CassetteAI' }).getAttribute('aria-checked')).toBe('true');
    expect(group.getByRole('radio', { name: 'ACE-Step' }).getAttribute('aria-checked')).toBe('false');
  });

  it('hides the lyrics for an instrumental-only model, sends none, and keeps the duration in its range', async () => {
    const { user, sent } = renderCreate();
    const group = within(await modelGroup());
    await user.type(panel().getByLabelText('Genre Tags'), 'ambient');
    await user.type(panel().getByLabelText('Lyrics (optional)'), 'Words it cannot sing');
    const slider = panel().getByRole('slider', { name: 'Duration' });
    expect(slider.getAttribute('max')).toBe('240');

    await user.click(group.getByRole('radio', { name: 'CassetteAI' }));

    expect(panel().queryByLabelText(/^Lyrics/)).toBeNull();
    expect(panel().queryByRole('switch', { name: 'Instrumental' })).toBeNull();
    expect(panel().queryByRole('button', { name: 'Lyrics helper' })).toBeNull();
    expect(panel().getByText('CassetteAI makes instrumentals: it takes no lyrics.')).toBeDefined();
    expect(slider.getAttribute('min')).toBe('10');
    expect(slider.getAttribute('max')).toBe('180');
    // The default 60 seconds is inside CassetteAI's range.
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));

    await waitFor(() => expect(sent.text).toHaveLength(1));
    expect(sent.text[0]).toEqual({
      tags: 'ambient',
      instrumental: false,
      duration: 60,
      visibility: 'public',
      model: 'cassetteai',
    });
  });

  it('takes a length past a shorter model’s range as the longest it can make', async () => {
    const { user, sent } = renderCreate();
    const group = within(await modelGroup());
    await user.type(panel().getByLabelText('Genre Tags'), 'ambient');
    fireEvent.change(panel().getByRole('slider', { name: 'Duration' }), { target: { value: '240' } });
    expect(panel().getByText('4:00 (240 seconds)')).toBeDefined();

    await user.click(group.getByRole('radio', { name: 'CassetteAI' }));

    expect(panel().getByText('3:00 (180 seconds)')).toBeDefined();
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));
    await waitFor(() => expect(sent.text).toHaveLength(1));
    expect(sent.text[0]).toMatchObject({ model: 'cassetteai', duration: 180 });
  });

  it('asks for lyrics for a model that always sings, and sends no duration to one that decides it', async () => {
    const { user, sent, fetchMock } = renderCreate();
    const group = within(await modelGroup());

    await user.click(group.getByRole('radio', { name: 'MiniMax Music 2.0' }));

    expect(panel().queryByRole('slider', { name: 'Duration' })).toBeNull();
    expect(panel().getByText('The model chooses the length.')).toBeDefined();
    expect(panel().queryByRole('switch', { name: 'Instrumental' })).toBeNull();
    const lyrics = panel().getByLabelText('Lyrics (required)');
    expect(lyrics.getAttribute('aria-required')).toBe('true');
    expect(lyrics.getAttribute('maxLength')).toBe('3000');
    const hint = 'MiniMax Music 2.0 always sings: write lyrics of 10 to 3,000 characters.';
    expect(document.getElementById(lyrics.getAttribute('aria-describedby') ?? '')?.textContent).toBe(hint);

    await user.type(panel().getByLabelText('Genre Tags'), 'indie pop, warm');
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));
    expect(await notifications().findByText(hint)).toBeDefined();
    expect(callsMade(fetchMock)).not.toContain('POST /api/generate-text-to-music');

    await user.type(lyrics, 'Streetlights hum our names tonight');
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));

    await waitFor(() => expect(sent.text).toHaveLength(1));
    expect(sent.text[0]).toEqual({
      tags: 'indie pop, warm',
      lyrics: 'Streetlights hum our names tonight',
      instrumental: false,
      visibility: 'public',
      model: 'minimax-music-2',
    });
  });

  it('refuses tags shorter than the model takes before anything is sent', async () => {
    const { user, fetchMock } = renderCreate();
    const group = within(await modelGroup());
    await user.click(group.getByRole('radio', { name: 'MiniMax Music 2.0' }));
    await user.type(panel().getByLabelText('Genre Tags'), 'pop');
    await user.type(panel().getByLabelText('Lyrics (required)'), 'Streetlights hum our names tonight');

    await user.click(panel().getByRole('button', { name: 'Generate Music' }));

    expect(
      await notifications().findByText('MiniMax Music 2.0 takes tags of 10 to 300 characters; these have 3.'),
    ).toBeDefined();
    expect(callsMade(fetchMock)).not.toContain('POST /api/generate-text-to-music');
  });

  it('moves between the models with the arrow keys', async () => {
    const { user } = renderCreate();
    const group = within(await modelGroup());
    const ace = group.getByRole('radio', { name: 'ACE-Step' });
    ace.focus();

    // Held, then let go: the model is chosen as focus reaches it, while the key is down.
    await user.keyboard('{ArrowDown>}');
    await user.keyboard('{/ArrowDown}');

    // MiniMax Music 2.5 (not in the plan) is passed over.
    const next = group.getByRole('radio', { name: 'MiniMax Music 2.0' });
    expect(document.activeElement).toBe(next);
    expect(next.getAttribute('aria-checked')).toBe('true');
  });

  it('restyles an upload only with a model that can', async () => {
    const { user } = renderCreate();
    await modelGroup();

    await user.click(screen.getByRole('tab', { name: 'Audio to Music' }));

    const group = within(await panel().findByRole('radiogroup', { name: 'Model' }));
    const names = group
      .getAllByRole('radio')
      .map((radio) => document.getElementById(radio.getAttribute('aria-labelledby') ?? '')?.textContent);
    expect(names).toEqual(['ACE-Step']);
    expect(group.getByRole('radio', { name: 'ACE-Step' }).getAttribute('aria-checked')).toBe('true');
  });

  it('holds the models’ place while they load, then shows them', async () => {
    const answer = deferredResponse(() => jsonResponse(modelCatalogue()));
    renderCreate(answer.handler);

    expect(await panel().findByText('Loading models')).toBeDefined();
    expect(panel().queryByRole('radiogroup', { name: 'Model' })).toBeNull();
    answer.respond();

    expect(await modelGroup()).toBeDefined();
    expect(panel().queryByText('Loading models')).toBeNull();
  });

  it('says when the models cannot be loaded, still makes tracks with the default, and tries again', async () => {
    let calls = 0;
    const { user, sent } = renderCreate(() =>
      ++calls === 1 ? jsonResponse({ message: 'boom' }, 500) : jsonResponse(modelCatalogue()),
    );

    const alert = await panel().findByRole('alert');
    expect(alert.textContent).toContain(
      "The models could not be loaded; your track is made with the site's default model.",
    );
    await user.type(panel().getByLabelText('Genre Tags'), 'lo-fi');
    await user.click(panel().getByRole('button', { name: 'Generate Music' }));
    await waitFor(() => expect(sent.text).toHaveLength(1));
    expect(sent.text[0]).not.toHaveProperty('model');

    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await modelGroup()).toBeDefined();
  });
});
