import { uploadMessages } from '@tunesmith/shared/uploads';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { normalizeUploadPath } from '../api/normalize-upload-path';
import { reserveUpload } from '../api/reserve-upload';
import type { AudioUploader } from '../utils/audio-uploader';

export interface UploadedAudio {
  /** What a generation takes as `inputAudioUrl`. */
  objectPath: string;
  fileName: string;
}

export interface UploadAudioDialogProps {
  onUploaded: (upload: UploadedAudio) => void;
  disabled?: boolean;
}

/**
 * The Upload Audio button and its dialog. The uploader (Uppy) is loaded the
 * first time the dialog opens, so pages that never upload do not download it.
 * The button toggles the dialog; Escape, the dialog's close button and a
 * finished upload close it.
 */
export function UploadAudioDialog({ onUploaded, disabled }: UploadAudioDialogProps) {
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);
  const uploader = useRef<AudioUploader | null>(null);
  const loader = useRef<Promise<AudioUploader> | null>(null);
  const mounted = useRef(true);
  const handleUnauthorized = useUnauthorizedHandler();
  // The uploader lives across renders; it reads the latest callbacks through this.
  const latest = useRef({ onUploaded, handleUnauthorized });
  latest.current = { onUploaded, handleUnauthorized };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      uploader.current?.destroy();
      uploader.current = null;
    };
  }, []);

  const fail = (error: unknown) => {
    if (latest.current.handleUnauthorized(error)) return;
    toast({
      title: uploadMessages.processFailedTitle,
      description: serverMessage(error, uploadMessages.processFailed),
      variant: 'destructive',
    });
  };

  const load = (): Promise<AudioUploader> => {
    loader.current ??= import('../utils/audio-uploader').then(({ createAudioUploader }) => {
      const created = createAudioUploader({
        reserve: reserveUpload,
        onUploadSuccess: async ({ fileName, uploadURL }) => {
          try {
            const { objectPath } = await normalizeUploadPath(uploadURL);
            if (!mounted.current) return;
            toast({ title: uploadMessages.uploadedTitle, description: fileName });
            latest.current.onUploaded({ objectPath, fileName });
          } catch (error) {
            if (mounted.current) fail(error);
          }
        },
        onUploadError: (error) => {
          if (mounted.current) fail(error);
        },
        onClosed: () => {
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
      uploader.current?.close();
      setOpen(false);
      return;
    }
    setOpen(true);
    setLoading(true);
    try {
      const ready = await load();
      if (mounted.current) ready.open();
    } catch {
      // The uploader's code could not be loaded (offline or a new release); a later click retries.
      loader.current = null;
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
