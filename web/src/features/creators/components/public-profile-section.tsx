import {
  BIO_MAX,
  creatorMessages,
  DISPLAY_NAME_MAX,
  HANDLE_MAX,
  isReservedHandle,
  type PublicProfile,
  type PublicProfileInput,
  publicProfileInputSchema,
} from '@tunesmith/shared/community';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { ApiError, serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useDeletePublicProfile, useMyPublicProfile, useSetPublicProfile } from '../api/public-profile';

type Field = 'handle' | 'displayName' | 'bio';

/**
 * Profile → Public profile: nothing about the user is public until they choose a handle here; going
 * private again takes their page, handle and followers away (decision 059).
 */
export function PublicProfileSection() {
  const profile = useMyPublicProfile();
  // Going public or private (or a new handle) replaces the form: focus moves into the new one.
  const [changed, setChanged] = useState(false);
  return (
    <Card className="mt-8">
      <CardHeader>
        <h2 className="text-xl font-semibold text-white">Public profile</h2>
        <p className="text-sm text-zinc-400">
          Your tracks are anonymous until you choose a handle. With one, your public tracks name you and link
          to your page, where people can follow you.
        </p>
      </CardHeader>
      <CardContent>
        {profile.isPending ? (
          <Spinner label="Loading your public profile" />
        ) : profile.isError ? (
          <p role="alert" className="text-sm text-red-300">
            Your public profile could not be loaded. Reload the page to try again.
          </p>
        ) : (
          <ProfileForm
            key={profile.data?.handle ?? 'private'}
            profile={profile.data}
            focusOnMount={changed}
            onChanged={() => setChanged(true)}
          />
        )}
      </CardContent>
    </Card>
  );
}

function ProfileForm({
  profile,
  focusOnMount,
  onChanged,
}: {
  profile: PublicProfile | null;
  /** Set when this form replaced one the user changed: their page's link, or the handle once private. */
  focusOnMount: boolean;
  onChanged: () => void;
}) {
  const handleUnauthorized = useUnauthorizedHandler();
  const formRef = useRef<HTMLFormElement>(null);
  // Read once, as the form mounts: a later change of the prop is for the form that replaces this one.
  const [focusFirst] = useState(focusOnMount);
  const isPublic = profile !== null;
  useEffect(() => {
    if (focusFirst)
      formRef.current?.querySelector<HTMLElement>(isPublic ? 'a[href^="/@"]' : 'input')?.focus();
  }, [focusFirst, isPublic]);
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<Field, PublicProfileInput>(
    { handle: profile?.handle ?? '', displayName: profile?.displayName ?? '', bio: profile?.bio ?? '' },
    publicProfileInputSchema,
  );
  const save = useSetPublicProfile({
    onSuccess: (saved) => {
      onChanged();
      setFormError(null);
      toast({ title: profile ? 'Public profile saved' : `You are @${saved.handle}` });
    },
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      const message = serverMessage(error, 'Your profile could not be saved. Please try again.');
      if (error instanceof ApiError && (error.status === 409 || message === creatorMessages.handleReserved))
        form.showErrors({ handle: message });
      else setFormError(message);
    },
  });
  const goPrivate = useDeletePublicProfile({
    onSuccess: () => {
      onChanged();
      setConfirming(false);
      toast({ title: 'Your profile is private again' });
    },
    onError: (error) => {
      setConfirming(false);
      if (handleUnauthorized(error)) return;
      setFormError(serverMessage(error, 'Your profile could not be made private. Please try again.'));
    },
  });
  const handle = form.values.handle.trim();

  return (
    <>
      <form
        ref={formRef}
        noValidate
        aria-label="Public profile"
        className="grid gap-4"
        onSubmit={form.handleSubmit((data) => {
          if (save.isPending) return;
          if (isReservedHandle(data.handle)) {
            form.showErrors({ handle: creatorMessages.handleReserved });
            return;
          }
          setFormError(null);
          save.mutate(data);
        })}
      >
        <FormField label="Handle" {...form.fieldMeta('handle')}>
          <Input
            {...form.register('handle')}
            autoComplete="off"
            spellCheck={false}
            placeholder="your-name"
            maxLength={HANDLE_MAX}
          />
        </FormField>
        <p className="-mt-2 text-sm text-zinc-400" aria-live="polite">
          Your page:{' '}
          <span className="text-zinc-200">{`${window.location.origin}/@${handle || 'handle'}`}</span>
        </p>
        <FormField label="Display name" {...form.fieldMeta('displayName')}>
          <Input {...form.register('displayName')} autoComplete="nickname" maxLength={DISPLAY_NAME_MAX} />
        </FormField>
        <FormField label="Bio (optional)" {...form.fieldMeta('bio')}>
          <Textarea {...form.register('bio')} className="min-h-20" maxLength={BIO_MAX} />
        </FormField>
        {formError ? (
          <p role="alert" className="text-sm text-red-300">
            {formError}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : profile ? 'Save public profile' : 'Go public'}
          </Button>
          {profile ? (
            <>
              <Link
                to={`/@${profile.handle}`}
                className="text-sm text-violet-300 underline hover:text-violet-200"
              >
                View your page
              </Link>
              <Button type="button" variant="outline" onClick={() => setConfirming(true)}>
                Go private
              </Button>
            </>
          ) : null}
        </div>
      </form>
      {/* The Dialog primitive, as ConfirmDialog is: that one, shared with the admin pages, would be split
          into a chunk of its own, and every chunk's name is in the first load. */}
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        role="alertdialog"
        title="Go private?"
        description={`Your page @${profile?.handle ?? ''} goes away, the handle is released, your followers no longer follow you, and your tracks are anonymous again.`}
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setConfirming(false)} disabled={goPrivate.isPending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => goPrivate.mutate()} disabled={goPrivate.isPending}>
            {goPrivate.isPending ? 'Working...' : 'Go private'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
