import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { UploadAudioDialog } from './upload-audio-dialog';

// The uploader's code arrives only when the test lets it, to click while it is still loading.
const uppy = vi.hoisted(() => {
  let release = () => {};
  const loaded = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { loaded, release: () => release(), open: vi.fn(), close: vi.fn(), destroy: vi.fn() };
});
vi.mock('../utils/audio-uploader', async () => {
  await uppy.loaded;
  return {
    createAudioUploader: () => ({ open: uppy.open, close: uppy.close, destroy: uppy.destroy }),
  };
});

describe('upload audio dialog while the uploader loads', () => {
  it('a second click cancels the opening: the button says closed and the dialog stays closed', async () => {
    const { user } = renderWithProviders(<UploadAudioDialog onUploaded={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Upload Audio' });

    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Opening the uploader...');
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('status')).toBeNull();

    uppy.release();
    await import('../utils/audio-uploader');
    // The page's own wait on the same code ends in microtasks, all run before the next task.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(uppy.open).not.toHaveBeenCalled();
    expect(button.getAttribute('aria-expanded')).toBe('false');

    // The next click opens it at once, with the code already there.
    await user.click(button);
    await waitFor(() => expect(uppy.open).toHaveBeenCalledTimes(1));
    expect(button.getAttribute('aria-expanded')).toBe('true');
  });
});
