import { uploadMessages } from '@tunesmith/shared/uploads';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { abortMultipartUpload } from '../api/abort-multipart-upload';
import { completeMultipartUpload } from '../api/complete-multipart-upload';
import { createMultipartUpload } from '../api/create-multipart-upload';
import { listMultipartParts } from '../api/list-multipart-parts';
import { normalizeUploadPath } from '../api/normalize-upload-path';
import { reserveUpload } from '../api/reserve-upload';
import { signMultipartPart } from '../api/sign-multipart-part';
import type { AudioUploader, UploadInProgress } from '../utils/audio-uploader';
import type { MultipartApi } from '../utils/upload-in-parts';

const multipartApi: MultipartApi = {
  create: createMultipartUpload,
  signPart: signMultipartPart,
  listParts: listMultipartParts,
  complete: completeMultipartUpload,
  abort: abortMultipartUpload,
};

export interface UploadedAudio {
  /** What a generation takes as `inputAudioUrl`. */
  objectPath: string;
  fileName: string;
}

export interface UploadAudioDialogProps {
  onUploaded: (upload: UploadedAudio) => void;
  /**
   * True from the moment a finished upload goes to the server's check until
   * the check answers (the dialog has closed by then), false after.
   */
  onCheckingChange?: (checking: boolean) => void;
  /** The upload under way (or null): the page shows it while the dialog is closed. */
  onUploadingChange?: (upload: UploadInProgress | null) => void;
  disabled?: boolean;
}

/**
 * The Upload Audio button and its dialog. The uploader (Uppy) is loaded the
 * first time the dialog opens, so pages that never upload do not download it.
 * The button toggles the dialog; Escape, the dialog's close button and a
 * finished upload close it. A second click while the uploader is still loading
 * cancels the opening, so the button and the dialog always agree.
 */
export function UploadAudioDialog({
  onUploaded,
  onCheckingChange,
  onUploadingChange,
  disabled,
}: UploadAudioDialogProps) {
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);
  const uploader = useRef<AudioUploader | null>(null);
  const loader = useRef<Promise<AudioUploader> | null>(null);
  const mounted = useRef(true);
  // Whether the user still wants the dialog once the uploader's code has loaded.
  const wanted = useRef(false);
  // Checks under way; another upload may finish while one is still being checked.
  const checks = useRef(0);
  const handleUnauthorized = useUnauthorizedHandler();
  // The uploader lives across renders; it reads the latest callbacks through this.
  const latest = useRef({ onUploaded, onCheckingChange, onUploadingChange, handleUnauthorized });
  latest.current = { onUploaded, onCheckingChange, onUploadingChange, handleUnauthorized };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      uploader.current?.destroy();
      uploader.current = null;
    };
  }, []);

  /** Says why an upload failed: in the dialog while it is open (a toast would sit behind it), else a toast. */
  const fail = (error: unknown, inDialog = false) => {
    if (latest.current.handleUnauthorized(error)) return;
    const message = serverMessage(error, uploadMessages.processFailed);
    if (inDialog && uploader.current) {
      uploader.current.inform(message);
      return;
    }
    toast({ title: uploadMessages.processFailedTitle, description: message, variant: 'destructive' });
  };

  const load = (): Promise<AudioUploader> => {
    loader.current ??= import('../utils/audio-uploader').then(({ createAudioUploader }) => {
      const created = createAudioUploader({
        reserve: reserveUpload,
        multipart: multipartApi,
        onUploadSuccess: async (upload) => {
          const { fileName } = upload;
          checks.current += 1;
          latest.current.onCheckingChange?.(true);
          try {
            // An upload in parts was checked when it completed; a single PUT is checked now.
            const { objectPath } =
              'objectPath' in upload ? upload : await normalizeUploadPath(upload.uploadURL);
            if (!mounted.current) return;
            toast({ title: uploadMessages.uploadedTitle, description: fileName });
            latest.current.onUploaded({ objectPath, fileName });
          } catch (error) {
            if (mounted.current) fail(error);
          } finally {
            checks.current -= 1;
            if (mounted.current) latest.current.onCheckingChange?.(checks.current > 0);
          }
        },
        onUploadError: (error, { inDialog }) => {
          if (mounted.current) fail(error, inDialog);
        },
        onUploadingChange: (upload) => {
          if (mounted.current) latest.current.onUploadingChange?.(upload);
        },
        onClosed: () => {
          wanted.current = false;
          if (mounted.current) setOpen(false);
        },
      });
      if (!mounted.current) created.destroy();
      else uploader.current = created;
      return created;
    });
    return loader.current;
  };

  const toggle = async () => {
    if (open) {
      wanted.current = false;
      uploader.current?.close();
      setOpen(false);
      setLoading(false);
      return;
    }
    wanted.current = true;
    setOpen(true);
    setLoading(true);
    try {
      const ready = await load();
      if (mounted.current && wanted.current) ready.open();
    } catch {
      // The uploader's code could not be loaded (offline or a new release); a later click retries.
      loader.current = null;
      wanted.current = false;
      if (!mounted.current) return;
      setOpen(false);
      toast({
        title: uploadMessages.processFailedTitle,
        description: 'The uploader could not be loaded. Please try again.',
        variant: 'destructive',
      });
    } finally {
      if (mounted.current) setLoading(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant="outline"
        onClick={toggle}
        disabled={disabled}
        aria-haspopup="dialog"
        aria-expanded={open}
      >
        <Icon d="M4 17v2a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-2M16 8l-4-4-4 4M12 4v12" />
        Upload Audio
      </Button>
      {loading ? (
        <span role="status" className="text-sm text-zinc-300">
          Opening the uploader...
        </span>
      ) : null}
    </div>
  );
}
