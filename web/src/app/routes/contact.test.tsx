import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anonymous, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';

describe('contact page', () => {
  it('shows the form, contact information, hours and an FAQ', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous() });
    renderApp('/contact');

    expect(await screen.findByRole('heading', { level: 1, name: 'Contact Us' })).toBeDefined();
    expect(screen.getByRole('form', { name: 'Contact form' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'support@tunesmith.example' }).getAttribute('href')).toBe(
      'mailto:support@tunesmith.example',
    );
    expect(screen.getByText(/within 24 hours, Monday to Friday, 9 AM to 6 PM EST/)).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeDefined();
    expect(screen.getByText('Can I download my tracks?')).toBeDefined();
    expect(document.title).toBe('Contact | Tunesmith');
  });
});
