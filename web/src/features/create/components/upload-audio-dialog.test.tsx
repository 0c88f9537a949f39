import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { deferredResponse, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderWithProviders } from '@/testing/render';
import type { AudioUploaderOptions } from '../utils/audio-uploader';
import { AudioToMusicForm } from './audio-to-music-form';
import { UploadAudioDialog } from './upload-audio-dialog';

// The uploader (Uppy) is tested on its own; here it is a stand-in that records what the dialog asks of it.
const uppy = vi.hoisted(() => ({
  options: undefined as AudioUploaderOptions | undefined,
  open: vi.fn(),
  close: vi.fn(),
  inform: vi.fn(),
  destroy: vi.fn(),
  created: 0,
}));
vi.mock('../utils/audio-uploader', () => ({
  createAudioUploader: (options: AudioUploaderOptions) => {
    uppy.options = options;
    uppy.created += 1;
    return { open: uppy.open, close: uppy.close, inform: uppy.inform, destroy: uppy.destroy };
  },
}));

function uploaderOptions(): AudioUploaderOptions {
  if (!uppy.options) throw new Error('the uploader was not created');
  return uppy.options;
}

const uploadURL = 'http://storage.test/uploads/user-1/abc.wav?X-Amz-Signature=sig';

beforeEach(() => {
  uppy.options = undefined;
  uppy.created = 0;
  uppy.open.mockClear();
  uppy.close.mockClear();
  uppy.inform.mockClear();
  uppy.destroy.mockClear();
});

async function openDialog(onUploaded = vi.fn()) {
  const rendered = renderWithProviders(<UploadAudioDialog onUploaded={onUploaded} />);
  const button = screen.getByRole('button', { name: 'Upload Audio' });
  expect(button.getAttribute('aria-expanded')).toBe('false');
  await rendered.user.click(button);
  await waitFor(() => expect(uppy.open).toHaveBeenCalledTimes(1));
  return { ...rendered, button, onUploaded };
}

describe('upload audio dialog', () => {
  it('loads the uploader on first opening only, and the button toggles the dialog', async () => {
    const { user, button } = await openDialog();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');

    await user.click(button);
    expect(uppy.close).toHaveBeenCalledTimes(1);
    expect(button.getAttribute('aria-expanded')).toBe('false');

    await user.click(button);
    await waitFor(() => expect(uppy.open).toHaveBeenCalledTimes(2));
    expect(uppy.created).toBe(1);
  });

  it('follows the dialog closing by itself (Escape, its close button, a finished upload)', async () => {
    const { button } = await openDialog();

    act(() => uploaderOptions().onClosed());

    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('reserves uploads through POST /api/objects/upload with the file description', async () => {
    let body: unknown;
    mockFetch({
      'POST /api/objects/upload': async (request) => {
        body = await request.json();
        return jsonResponse({ uploadURL, objectPath: 'uploads/user-1/abc.wav' });
      },
    });
    await openDialog();

    const answer = await uploaderOptions().reserve({
      filename: 'song.wav',
      contentType: 'audio/wav',
      size: 12,
    });

    expect(body).toEqual({ filename: 'song.wav', contentType: 'audio/wav', size: 12 });
    expect(answer.uploadURL).toBe(uploadURL);
  });

  it('normalizes a finished upload, confirms it and hands the objectPath to the form', async () => {
    let body: unknown;
    mockFetch({
      'POST /api/objects/normalize-path': async (request) => {
        body = await request.json();
        return jsonResponse({ objectPath: 'uploads/user-1/abc.wav' });
      },
    });
    const { onUploaded } = await openDialog();

    act(() => {
      uploaderOptions().onUploadSuccess({ fileName: 'song.wav', uploadURL });
    });

    const toast = await findToast();
    expect(within(toast).getByText('Audio Uploaded!')).toBeDefined();
    expect(body).toEqual({ uploadURL });
    expect(onUploaded).toHaveBeenCalledWith({ objectPath: 'uploads/user-1/abc.wav', fileName: 'song.wav' });
  });

  it('hands the objectPath of an upload in parts to the form without a second check', async () => {
    const calls: string[] = [];
    mockFetch({
      'POST /api/objects/normalize-path': async () => {
        calls.push('normalize');
        return jsonResponse({ objectPath: 'never' });
      },
    });
    const { onUploaded } = await openDialog();

    act(() => {
      uploaderOptions().onUploadSuccess({
        fileName: 'long.wav',
        objectPath: '/objects/uploads/user-1/big.wav',
      });
    });

    const toast = await findToast();
    expect(within(toast).getByText('Audio Uploaded!')).toBeDefined();
    expect(onUploaded).toHaveBeenCalledWith({
      objectPath: '/objects/uploads/user-1/big.wav',
      fileName: 'long.wav',
    });
    expect(calls).toEqual([]);
  });

  it("shows the server's reason when the uploaded file is refused", async () => {
    const reason = 'The uploaded file is not a supported audio file (MP3, WAV, M4A, AAC or OGG).';
    mockFetch({ 'POST /api/objects/normalize-path': jsonResponse({ message: reason }, 400) });
    const { onUploaded } = await openDialog();

    act(() => {
      uploaderOptions().onUploadSuccess({ fileName: 'song.wav', uploadURL });
    });

    const toast = await findToast();
    expect(within(toast).getByText('Upload Error')).toBeDefined();
    expect(within(toast).getByText(reason)).toBeDefined();
    expect(toast.dataset.variant).toBe('destructive');
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('says Failed to process uploaded file. when the check fails without a reason', async () => {
    mockFetch({ 'POST /api/objects/normalize-path': new Response('', { status: 502 }) });
    await openDialog();

    act(() => {
      uploaderOptions().onUploadSuccess({ fileName: 'song.wav', uploadURL });
    });

    const toast = await findToast();
    expect(within(toast).getByText('Upload Error')).toBeDefined();
    expect(within(toast).getByText('Failed to process uploaded file.')).toBeDefined();
  });

  it('reports a failed upload with a toast once the dialog is closed', async () => {
    await openDialog();

    act(() => uploaderOptions().onUploadError(new Error('S3 returned 403'), { inDialog: false }));

    const toast = await findToast();
    expect(within(toast).getByText('Upload Error')).toBeDefined();
    expect(within(toast).getByText('Failed to process uploaded file.')).toBeDefined();
  });

  it('says why an upload failed inside the open dialog, not in a toast behind its backdrop', async () => {
    const reason = 'The uploaded file is not a supported audio file (MP3, WAV, M4A, AAC or OGG).';
    await openDialog();

    act(() =>
      uploaderOptions().onUploadError(new ApiError(400, JSON.stringify({ message: reason }), 'Bad Request'), {
        inDialog: true,
      }),
    );

    expect(uppy.inform).toHaveBeenCalledWith(reason);
    expect(screen.queryByRole('region', { name: /Notifications/ })?.textContent ?? '').not.toContain(reason);
  });

  it('removes the uploader with the page', async () => {
    const { unmount } = await openDialog();

    unmount();

    expect(uppy.destroy).toHaveBeenCalledTimes(1);
  });
});

describe('the audio form while a finished upload is checked', () => {
  const reason = 'The uploaded file is not a supported audio file (MP3, WAV, M4A, AAC or OGG).';

  async function uploadIntoForm(answer: () => Response) {
    const check = deferredResponse(answer);
    mockFetch({ 'POST /api/objects/normalize-path': check.handler });
    const rendered = renderWithProviders(<AudioToMusicForm />);
    await rendered.user.click(screen.getByRole('button', { name: 'Upload Audio' }));
    await waitFor(() => expect(uppy.open).toHaveBeenCalledTimes(1));
    await rendered.user.type(screen.getByLabelText('Genre Tags'), 'jazz');
    // Uppy closes its dialog once the file is stored; the server's check is still to come.
    act(() => {
      uploaderOptions().onUploadSuccess({ fileName: 'song.wav', uploadURL });
      uploaderOptions().onClosed();
    });
    return { ...rendered, check };
  }

  const generate = () => screen.getByRole('button', { name: 'Generate Music' });

  it('says Checking upload... and holds Generate Music until the check answers', async () => {
    const { user, check } = await uploadIntoForm(() =>
      jsonResponse({ objectPath: 'uploads/user-1/abc.wav' }),
    );

    const status = await screen.findByText('Checking upload...');
    expect(status.getAttribute('role')).toBe('status');
    expect(screen.queryByText('No audio file uploaded yet.')).toBeNull();
    expect(generate()).toHaveProperty('disabled', true);
    expect(generate().textContent).toBe('Generate Music');
    // Enter in a field must not start or refuse anything either: the audio is on its way, not missing.
    await user.type(screen.getByLabelText('Title (optional)'), 'Take{Enter}');
    expect(screen.queryByText('Missing Audio File')).toBeNull();

    check.respond();

    expect(
      await screen.findByText((_, element) => element?.textContent === 'Selected file: song.wav', {
        selector: '[role="status"]',
      }),
    ).toBeDefined();
    expect(screen.queryByText('Checking upload...')).toBeNull();
    expect(generate()).toHaveProperty('disabled', false);
  });

  it('goes back to no audio file when the check refuses the upload', async () => {
    const { check } = await uploadIntoForm(() => jsonResponse({ message: reason }, 400));
    await screen.findByText('Checking upload...');

    check.respond();

    expect(await screen.findByText('No audio file uploaded yet.')).toBeDefined();
    expect(screen.queryByText('Checking upload...')).toBeNull();
    expect(generate()).toHaveProperty('disabled', false);
    expect(within(await findToast()).getByText(reason)).toBeDefined();
  });
});

describe('the audio form while an upload is under way', () => {
  async function startUpload() {
    const rendered = renderWithProviders(<AudioToMusicForm />);
    await rendered.user.click(screen.getByRole('button', { name: 'Upload Audio' }));
    await waitFor(() => expect(uppy.open).toHaveBeenCalledTimes(1));
    await rendered.user.type(screen.getByLabelText('Genre Tags'), 'jazz');
    act(() => uploaderOptions().onUploadingChange?.({ fileName: 'long-take.wav', percentage: 40 }));
    return rendered;
  }
  const generate = () => screen.getByRole('button', { name: 'Generate Music' });
  const status = () => screen.getByText((_, element) => element?.getAttribute('role') === 'status');

  it('shows the upload and holds Generate Music when the dialog is closed before it ends', async () => {
    const { user } = await startUpload();
    // Escape or the dialog's close button: Uppy goes on sending the file.
    act(() => uploaderOptions().onClosed());

    expect(status().textContent).toBe('Uploading long-take.wav... Upload Audio shows it and can cancel it.');
    expect(screen.getByRole('progressbar', { name: 'Uploading long-take.wav' }).getAttribute('value')).toBe(
      '40',
    );
    expect(generate()).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('Title (optional)'), 'Take{Enter}');
    expect(screen.queryByText('Missing Audio File')).toBeNull();

    act(() => uploaderOptions().onUploadingChange?.({ fileName: 'long-take.wav', percentage: 85 }));
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('85');
  });

  it('lets go once the upload is cancelled', async () => {
    await startUpload();
    act(() => uploaderOptions().onClosed());

    act(() => uploaderOptions().onUploadingChange?.(null));

    expect(status().textContent).toBe('No audio file uploaded yet.');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(generate()).toHaveProperty('disabled', false);
  });
});
