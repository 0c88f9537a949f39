import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CreatePlaylistRequest,
  createPlaylistSchema,
  PLAYLIST_DESCRIPTION_MAX,
  PLAYLIST_TITLE_MAX,
  type PlaylistCard,
} from '@tunesmith/shared/community';
import { type Visibility, visibilities } from '@tunesmith/shared/tracks';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { refusalMessage } from '@/lib/api-client';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { playlistText } from '../messages';

type PlaylistForm = { title: string; description?: string; visibility: Visibility };

export interface PlaylistFormDialogProps {
  open: boolean;
  onClose: () => void;
  /** The playlist to edit; none: a new one. */
  playlist?: Pick<PlaylistCard, 'title' | 'description' | 'visibility'>;
  /** Sends the form; resolves once saved (the dialog closes), rejects with the server's refusal. */
  onSubmit: (input: CreatePlaylistRequest) => Promise<unknown>;
}

/** Makes or edits a playlist: its title, description and who may listen (react-hook-form, the shared schema). */
export function PlaylistFormDialog({ open, onClose, playlist, onSubmit }: PlaylistFormDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={playlist ? playlistText.editTitle : playlistText.createTitle}
    >
      {/* Mounted with the dialog, so each opening starts from the playlist as it is. */}
      {open ? <PlaylistFields playlist={playlist} onClose={onClose} onSubmit={onSubmit} /> : null}
    </Dialog>
  );
}

function PlaylistFields({ playlist, onClose, onSubmit }: Omit<PlaylistFormDialogProps, 'open'>) {
  const id = useId();
  const handleUnauthorized = useUnauthorizedHandler();
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const form = useForm<PlaylistForm, unknown, CreatePlaylistRequest>({
    resolver: zodResolver(createPlaylistSchema),
    defaultValues: {
      title: playlist?.title ?? '',
      description: playlist?.description ?? '',
      visibility: playlist?.visibility ?? 'public',
    },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const field = (name: 'title' | 'description') => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  const submit = form.handleSubmit(async (input) => {
    setFormError(null);
    setPending(true);
    try {
      await onSubmit(input);
      onClose();
    } catch (error) {
      if (!handleUnauthorized(error)) {
        setFormError(refusalMessage(error, playlist ? playlistText.saveFailed : playlistText.createFailed));
      }
    } finally {
      setPending(false);
    }
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField
        label="Title"
        htmlFor={`${id}-title`}
        error={errors.title?.message}
        errorId={`${id}-title-error`}
      >
        <Input
          {...field('title')}
          maxLength={PLAYLIST_TITLE_MAX}
          autoComplete="off"
          {...form.register('title', { onChange: () => form.clearErrors('title') })}
        />
      </FormField>
      <FormField
        label="Description (optional)"
        htmlFor={`${id}-description`}
        error={errors.description?.message}
        errorId={`${id}-description-error`}
      >
        <Textarea
          {...field('description')}
          className="min-h-20"
          maxLength={PLAYLIST_DESCRIPTION_MAX}
          {...form.register('description')}
        />
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium text-zinc-200">Who can listen</legend>
        {visibilities.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm text-zinc-200">
            <input
              type="radio"
              value={value}
              className="accent-violet-500"
              {...form.register('visibility')}
            />
            {playlistText.visibility[value]}
          </label>
        ))}
      </fieldset>
      {formError ? (
        <p role="alert" className="text-sm text-red-300">
          {formError}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : playlist ? playlistText.save : playlistText.create}
        </Button>
      </div>
    </form>
  );
}
