import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { lazySchema, useForm } from './use-form';

const schema = z.object({ email: z.string().check(z.email('Please enter a valid email address')) });

function EmailForm({
  validation,
  onSend,
}: {
  validation: Parameters<typeof useForm>[1];
  onSend: () => void;
}) {
  const form = useForm<'email', { email: string }>({ email: '' }, validation as never);
  return (
    <form onSubmit={form.handleSubmit(onSend)}>
      <label htmlFor={form.fieldMeta('email').htmlFor}>Email</label>
      <input {...form.register('email')} />
      {form.errors.email ? <p>{form.errors.email}</p> : null}
      <button type="submit">Send</button>
    </form>
  );
}

describe('a form with a lazily loaded schema', () => {
  it('loads its schema when a field is first focused, once, and validates with it', async () => {
    const load = vi.fn(async () => schema);
    const validation = lazySchema(load);
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<EmailForm validation={validation} onSend={onSend} />);
    expect(load).not.toHaveBeenCalled();

    await user.click(screen.getByLabelText('Email'));
    expect(load).toHaveBeenCalledTimes(1);

    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeDefined();
    expect(onSend).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failed load', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(schema);
    const validation = lazySchema(load);
    await expect(validation.load()).rejects.toThrow('offline');
    await expect(validation.load()).resolves.toBe(schema);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
