import { act, screen, within } from '@testing-library/react';
import { CONTACT_SUCCESS_DELAY_MS } from '@tunesmith/shared/constants';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { ContactForm } from './contact-form';

const sent = "Message sent successfully! We'll get back to you within 24 hours.";

function renderForm() {
  return renderWithProviders(<ContactForm />, {
    userEvent: {
      advanceTimers: (ms) => {
        if (vi.isFakeTimers()) vi.advanceTimersByTime(ms);
      },
    },
  });
}

function notifications() {
  return within(screen.getByRole('region', { name: 'Notifications (F8)' }));
}

async function fillIn(user: ReturnType<typeof renderForm>['user'], values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value) await user.type(field, value);
  }
}

describe('contact form', () => {
  it('shows a message under each missing field', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderForm();

    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(screen.getByText('Name is required')).toBeDefined();
    expect(screen.getByText('Please enter a valid email address')).toBeDefined();
    expect(screen.getByText('Subject is required')).toBeDefined();
    expect(screen.getByText('Message is required')).toBeDefined();
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toBe(screen.getByText('Name is required').id);
    expect(document.activeElement).toBe(name);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('rejects a malformed email address', async () => {
    const { user } = renderForm();

    await fillIn(user, { Name: 'Ada', Email: 'ada-at-example', Subject: 'Hi', Message: 'Hello' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(screen.getByText('Please enter a valid email address')).toBeDefined();
    expect(screen.queryByText('Name is required')).toBeNull();
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeDefined();
  });

  it('confirms only after the delay, then clears the form', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderForm();
    await fillIn(user, {
      Name: 'Ada Lovelace',
      Email: 'ada@example.com',
      Subject: 'Downloads',
      Message: 'How do I download my tracks?',
    });

    vi.useFakeTimers();
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(screen.getByRole('button', { name: 'Sending...' })).toHaveProperty('disabled', true);
    act(() => vi.advanceTimersByTime(CONTACT_SUCCESS_DELAY_MS - 1));
    expect(notifications().queryByText(sent)).toBeNull();
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'Ada Lovelace');

    act(() => vi.advanceTimersByTime(1));
    expect(notifications().getByText(sent)).toBeDefined();
    for (const label of ['Name', 'Email', 'Subject', 'Message']) {
      expect(screen.getByLabelText(label)).toHaveProperty('value', '');
    }
    expect(screen.getByRole('button', { name: 'Send Message' })).toHaveProperty('disabled', false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('clears a field error as soon as the field is edited', async () => {
    const { user } = renderForm();

    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await user.type(screen.getByLabelText('Subject'), 'Billing');

    expect(screen.queryByText('Subject is required')).toBeNull();
    expect(screen.getByText('Name is required')).toBeDefined();
  });
});
