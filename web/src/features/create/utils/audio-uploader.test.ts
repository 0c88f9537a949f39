import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { type AudioUploader, createAudioUploader, refusedForGood, uploadParameters } from './audio-uploader';
import { PartUploadError } from './upload-in-parts';

interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Stands in for the browser's XHR, which Uppy uses to PUT the file; answers 200 with an ETag. */
function fakeStorage() {
  const sent: SentRequest[] = [];
  class FakeXhr {
    status = 0;
    statusText = '';
    responseText = '';
    withCredentials = false;
    upload: { onprogress?: (event: unknown) => void } = {};
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    #request: SentRequest = { method: '', url: '', headers: {}, body: undefined };
    open(method: string, url: string) {
      this.#request = { method, url, headers: {}, body: undefined };
    }
    setRequestHeader(name: string, value: string) {
      this.#request.headers[name.toLowerCase()] = value;
    }
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'etag' ? '"etag-1"' : null;
    }
    abort() {}
    send(body: unknown) {
      this.#request.body = body;
      sent.push(this.#request);
      queueMicrotask(() => {
        this.status = 200;
        this.statusText = 'OK';
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const reservation = {
  uploadURL: 'http://storage.test/uploads/user-1/abc.wav?X-Amz-Signature=sig',
  objectPath: 'uploads/user-1/abc.wav',
};

let uploader: AudioUploader | undefined;
afterEach(() => {
  uploader?.destroy();
  uploader = undefined;
  document.body.innerHTML = '';
});

function dashboard() {
  const element = document.querySelector<HTMLElement>('.uppy-Dashboard');
  if (!element) throw new Error('no dashboard');
  return element;
}

/** The dashboard's notice line (Uppy's informer), empty when nothing is shown. */
function informer() {
  return document.querySelector('.uppy-Informer')?.textContent ?? '';
}

/** Chooses files through the dashboard's own file input, as "browse files" does. */
function chooseFiles(...files: File[]) {
  const input = document.querySelector<HTMLInputElement>('.uppy-Dashboard-input');
  if (!input) throw new Error('no file input');
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
}

/** A file of `size` bytes that starts as a WAV does (the rest silence). */
const wavFile = (name: string, size: number) =>
  new File(['RIFF....WAVE', new Uint8Array(size - 12)], name, { type: 'audio/wav' });

const inParts = {
  location: '/objects/uploads/user-1/big.wav',
  key: 'uploads/user-1/big.wav',
  objectPath: '/objects/uploads/user-1/big.wav',
};

function fakeMultipart() {
  return {
    create: vi.fn(async () => ({ key: 'incoming/user-1/big.wav', uploadId: 'up-1' })),
    signPart: vi.fn(async (_upload: unknown, partNumber: number, _size: number) => ({
      url: `http://storage.test/part/${partNumber}`,
      headers: {},
      expires: 900,
    })),
    listParts: vi.fn(async () => []),
    complete: vi.fn(async () => inParts),
    abort: vi.fn(async () => undefined),
  };
}

function setUp() {
  const options = {
    multipart: fakeMultipart(),
    sendPart: vi.fn(
      async ({ url }: { url: string; body: Blob }, _onProgress?: (sent: number) => void) =>
        `"etag-${url.split('/').at(-1)}"`,
    ),
    reserve: vi.fn(async () => reservation),
    onUploadSuccess: vi.fn(),
    onUploadError: vi.fn(),
    onUploadingChange: vi.fn(),
    onClosed: vi.fn(),
  };
  uploader = createAudioUploader(options);
  return { ...options, uploader };
}

describe('upload parameters', () => {
  it('reserves with the file name, type and size and PUTs with the signed content type', async () => {
    const reserve = vi.fn(async () => reservation);

    const answer = await uploadParameters({ name: 'song.wav', type: 'audio/wav', size: 1234 }, reserve);

    expect(reserve).toHaveBeenCalledWith({ filename: 'song.wav', contentType: 'audio/wav', size: 1234 });
    expect(answer).toMatchObject({
      method: 'PUT',
      url: reservation.uploadURL,
      headers: { 'content-type': 'audio/wav' },
    });
  });

  it.each([
    ['does not know it', ''],
    ['names it in a way the server does not list', 'audio/vnd.dlna.adts'],
  ])('leaves the content type out of the signature when the browser %s', async (_case, type) => {
    const reserve = vi.fn(async () => reservation);

    const answer = await uploadParameters({ name: 'song.aac', type, size: null }, reserve);

    expect(reserve).toHaveBeenCalledWith({ filename: 'song.aac' });
    expect(answer.headers).toEqual({});
  });
});

describe('audio uploader', () => {
  it('opens as a modal named Upload Audio without the vendor credit, and Escape closes it', async () => {
    const { uploader: audio, onClosed } = setUp();

    audio.open();

    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));
    const dialog = document.querySelector('[role="dialog"]');
    expect(dialog?.getAttribute('aria-label')).toBe('Upload Audio');
    expect(dialog?.getAttribute('aria-modal')).toBe('true');
    expect(document.querySelector('.uppy-Dashboard-poweredBy')).toBeNull();

    fireEvent.keyDown(document, { key: 'Escape', keyCode: 27 });

    await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1));
    // The modal animates out; happy-dom runs no animations, so end it by hand.
    fireEvent.animationEnd(dashboard());
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('true'));
  });

  it('refuses other file types and files over 50485760 bytes, and takes an allowed one', async () => {
    const { uploader: audio, reserve } = setUp();
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));

    chooseFiles(new File(['text'], 'notes.txt', { type: 'text/plain' }));
    const big = new File(['x'], 'big.wav', { type: 'audio/wav' });
    Object.defineProperty(big, 'size', { value: 50_485_761 });
    chooseFiles(big);

    chooseFiles(new File(['RIFF....WAVE'], 'song.wav', { type: 'audio/wav' }));

    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    expect(document.querySelector('.uppy-Dashboard-Item')?.textContent).toContain('song.wav');
    expect(reserve).not.toHaveBeenCalled();
  });

  it('gives the size limit as 50 MB in its note and when it refuses a file that is too big', async () => {
    const { uploader: audio } = setUp();
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));
    expect(dashboard().textContent).toContain('up to 50 MB');

    const big = new File(['x'], 'big.wav', { type: 'audio/wav' });
    Object.defineProperty(big, 'size', { value: 50_485_761 });
    chooseFiles(big);

    await waitFor(() => expect(informer()).toContain('big.wav exceeds maximum allowed size of 50 MB'));
    expect(dashboard().textContent).not.toContain('48 MB');
  });

  it.each([
    // 50.4 MB is 48 MiB: Uppy's own formatter would call it "48 MB" beside the 50 MB limit.
    [50_400_000, '50 MB'],
    [50_485_760, '50 MB'],
    [3_240_000, '3.2 MB'],
  ])('shows a chosen file of %i bytes as %s, in the units of the limit', async (size, shown) => {
    const { uploader: audio } = setUp();
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));

    const file = new File(['RIFF....WAVE'], 'song.wav', { type: 'audio/wav' });
    Object.defineProperty(file, 'size', { value: size });
    chooseFiles(file);

    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    expect(document.querySelector('.uppy-Dashboard-Item-statusSize')?.textContent).toBe(shown);
    expect(dashboard().textContent).not.toContain('48 MB');
  });

  it('clears a refusal once an allowed file is chosen', async () => {
    const { uploader: audio } = setUp();
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));

    chooseFiles(new File(['text'], 'notes.txt', { type: 'text/plain' }));
    await waitFor(() => expect(informer()).toContain('You can only upload'));

    chooseFiles(new File(['RIFF....WAVE'], 'song.wav', { type: 'audio/wav' }));

    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    await waitFor(() => expect(informer()).toBe(''));
  });

  it('keeps a refusal that belongs to the same choice as the allowed file', async () => {
    const { uploader: audio } = setUp();
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));

    chooseFiles(
      new File(['text'], 'notes.txt', { type: 'text/plain' }),
      new File(['RIFF....WAVE'], 'song.wav', { type: 'audio/wav' }),
    );

    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    expect(informer()).toContain('You can only upload');
  });

  it('waits for the upload button, PUTs one file to the reserved address, reports it and closes', async () => {
    const sent = fakeStorage();
    const { uploader: audio, reserve, onUploadSuccess, onClosed } = setUp();
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));

    chooseFiles(new File(['RIFF....WAVE'], 'song.wav', { type: 'audio/wav' }));

    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    // No automatic start: nothing is reserved until the user asks for the upload.
    expect(reserve).not.toHaveBeenCalled();
    const start = document.querySelector<HTMLButtonElement>('.uppy-StatusBar-actionBtn--upload');
    if (!start) throw new Error('no upload button');
    fireEvent.click(start);

    await waitFor(() =>
      expect(onUploadSuccess).toHaveBeenCalledWith({
        fileName: 'song.wav',
        uploadURL: reservation.uploadURL,
      }),
    );
    expect(reserve).toHaveBeenCalledWith({ filename: 'song.wav', contentType: 'audio/wav', size: 12 });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      url: reservation.uploadURL,
      headers: { 'content-type': 'audio/wav' },
    });
    await waitFor(() => expect(onClosed).toHaveBeenCalled());
  });

  it('sends a file over 5 MiB in parts through the multipart calls and reports its checked path', async () => {
    const sent = fakeStorage();
    const { uploader: audio, reserve, multipart, sendPart, onUploadSuccess } = setUp();
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));
    const big = wavFile('big.wav', 12 * 1024 * 1024);
    chooseFiles(big);
    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));

    const start = document.querySelector<HTMLButtonElement>('.uppy-StatusBar-actionBtn--upload');
    if (!start) throw new Error('no upload button');
    fireEvent.click(start);

    await waitFor(() =>
      expect(onUploadSuccess).toHaveBeenCalledWith({ fileName: 'big.wav', objectPath: inParts.objectPath }),
    );
    expect(multipart.create).toHaveBeenCalledWith(
      { filename: 'big.wav', type: 'audio/wav' },
      expect.anything(),
    );
    expect(sendPart.mock.calls.map(([part]) => part.body.size)).toEqual([
      5 * 1024 * 1024,
      5 * 1024 * 1024,
      2 * 1024 * 1024,
    ]);
    expect(multipart.complete).toHaveBeenCalledTimes(1);
    // Not also sent whole.
    expect(reserve).not.toHaveBeenCalled();
    expect(sent).toHaveLength(0);
  });

  it('aborts an upload in parts when its file is removed', async () => {
    const { uploader: audio, multipart, sendPart, onUploadSuccess } = setUp();
    let release: () => void = () => undefined;
    sendPart.mockImplementationOnce(
      ({ url }: { url: string; body: Blob }) =>
        new Promise<string>((resolve) => {
          release = () => resolve(`"etag-${url.split('/').at(-1)}"`);
        }),
    );
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));
    chooseFiles(wavFile('big.wav', 6 * 1024 * 1024));
    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    const start = document.querySelector<HTMLButtonElement>('.uppy-StatusBar-actionBtn--upload');
    if (!start) throw new Error('no upload button');
    fireEvent.click(start);
    await waitFor(() => expect(sendPart).toHaveBeenCalledTimes(1));

    const remove = document.querySelector<HTMLButtonElement>('.uppy-Dashboard-Item-action--remove');
    if (!remove) throw new Error('no remove button');
    fireEvent.click(remove);
    release();

    await waitFor(() =>
      expect(multipart.abort).toHaveBeenCalledWith({ key: 'incoming/user-1/big.wav', uploadId: 'up-1' }),
    );
    expect(multipart.complete).not.toHaveBeenCalled();
    expect(onUploadSuccess).not.toHaveBeenCalled();
  });

  it('resumes a failed upload in parts on retry, sending only what storage does not hold', async () => {
    const { uploader: audio, multipart, sendPart, onUploadSuccess, onUploadError } = setUp();
    sendPart.mockImplementation(async ({ url }: { url: string; body: Blob }) => {
      const part = url.split('/').at(-1);
      // Storage refuses part 2 once, for good (no automatic try again).
      if (part === '2' && sendPart.mock.calls.filter(([p]) => p.url.endsWith('/2')).length === 1) {
        throw new PartUploadError(400, false);
      }
      return `"etag-${part}"`;
    });
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));
    chooseFiles(wavFile('big.wav', 11 * 1024 * 1024));
    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    const start = document.querySelector<HTMLButtonElement>('.uppy-StatusBar-actionBtn--upload');
    if (!start) throw new Error('no upload button');
    fireEvent.click(start);
    await waitFor(() => expect(onUploadError).toHaveBeenCalledTimes(1));
    multipart.listParts.mockResolvedValueOnce([
      { PartNumber: 1, ETag: '"etag-1"', Size: 5 * 1024 * 1024 },
    ] as never);

    const retry = await waitFor(() => {
      const button = document.querySelector<HTMLButtonElement>('.uppy-StatusBar-actionBtn--retry');
      if (!button) throw new Error('no retry button');
      return button;
    });
    fireEvent.click(retry);

    await waitFor(() =>
      expect(onUploadSuccess).toHaveBeenCalledWith({ fileName: 'big.wav', objectPath: inParts.objectPath }),
    );
    expect(multipart.create).toHaveBeenCalledTimes(1);
    expect(multipart.listParts).toHaveBeenCalledWith(
      { key: 'incoming/user-1/big.wav', uploadId: 'up-1' },
      expect.anything(),
    );
    expect(sendPart.mock.calls.map(([part]) => part.url.split('/').at(-1))).toEqual(['1', '2', '2', '3']);
    expect(multipart.complete).toHaveBeenCalledWith(
      { key: 'incoming/user-1/big.wav', uploadId: 'up-1' },
      [
        { PartNumber: 1, ETag: '"etag-1"' },
        { PartNumber: 2, ETag: '"etag-2"' },
        { PartNumber: 3, ETag: '"etag-3"' },
      ],
      expect.anything(),
    );
  });

  it('refuses a chosen file that is not audio as it is chosen, saying why in the dialog, sending nothing', async () => {
    const { uploader: audio, reserve, multipart } = setUp();
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));
    // An allowed name over 5 MiB whose bytes are not audio: the server would refuse it after it was sent.
    const notes = new File(['Dear diary', new Uint8Array(6 * 1024 * 1024)], 'diary.mp3', {
      type: 'audio/mpeg',
    });

    chooseFiles(notes);

    await waitFor(() =>
      expect(informer()).toContain(
        'diary.mp3 is not a supported audio file (MP3, WAV, M4A, AAC or OGG), so it cannot be used.',
      ),
    );
    expect(document.querySelector('.uppy-Informer [role="alert"]')).not.toBeNull();
    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(0));
    expect(document.querySelector('.uppy-StatusBar-actionBtn--upload')).toBeNull();
    expect(reserve).not.toHaveBeenCalled();
    expect(multipart.create).not.toHaveBeenCalled();
  });

  it('takes the file out, with the reason and no Retry, when the server refuses it for good', async () => {
    const { uploader: audio, multipart, onUploadError } = setUp();
    const reason = 'The uploaded file is not a supported audio file (MP3, WAV, M4A, AAC or OGG).';
    multipart.complete.mockRejectedValueOnce(
      new ApiError(400, JSON.stringify({ message: reason }), 'Bad Request'),
    );
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));
    chooseFiles(wavFile('big.wav', 6 * 1024 * 1024));
    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    const start = document.querySelector<HTMLButtonElement>('.uppy-StatusBar-actionBtn--upload');
    if (!start) throw new Error('no upload button');

    fireEvent.click(start);

    await waitFor(() => expect(onUploadError).toHaveBeenCalledWith(expect.any(ApiError), { inDialog: true }));
    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(0));
    expect(document.querySelector('.uppy-StatusBar-actionBtn--retry')).toBeNull();
  });

  it('keeps Retry for a failure that a retry may mend', () => {
    expect(refusedForGood(new PartUploadError(0, true))).toBe(false);
    expect(
      refusedForGood(new ApiError(429, JSON.stringify({ message: 'Too many' }), 'Too Many Requests')),
    ).toBe(false);
    expect(
      refusedForGood(
        new ApiError(
          400,
          JSON.stringify({ message: 'Audio files must be 50 MB or smaller.' }),
          'Bad Request',
        ),
      ),
    ).toBe(true);
  });

  it('tells the page of the upload under way, its file and how far it is, until it ends', async () => {
    const { uploader: audio, sendPart, onUploadingChange, onUploadSuccess } = setUp();
    let release: () => void = () => undefined;
    sendPart.mockImplementationOnce(
      ({ url }: { url: string; body: Blob }, onProgress?: (sent: number) => void) =>
        new Promise<string>((resolve) => {
          onProgress?.(2 * 1024 * 1024);
          release = () => resolve(`"etag-${url.split('/').at(-1)}"`);
        }),
    );
    audio.open();
    await waitFor(() => expect(dashboard().getAttribute('aria-hidden')).toBe('false'));
    chooseFiles(wavFile('long-take.wav', 8 * 1024 * 1024));
    await waitFor(() => expect(document.querySelectorAll('.uppy-Dashboard-Item')).toHaveLength(1));
    const start = document.querySelector<HTMLButtonElement>('.uppy-StatusBar-actionBtn--upload');
    if (!start) throw new Error('no upload button');
    fireEvent.click(start);

    await waitFor(() =>
      expect(onUploadingChange).toHaveBeenLastCalledWith({ fileName: 'long-take.wav', percentage: 25 }),
    );
    // Closing the dialog does not stop it, and the page goes on being told.
    audio.close();
    release();

    await waitFor(() => expect(onUploadSuccess).toHaveBeenCalled());
    await waitFor(() => expect(onUploadingChange).toHaveBeenLastCalledWith(null));
  });
});
