import { useQueryClient } from '@tanstack/react-query';
import {
  DELETE_ACCOUNT_CONFIRMATION,
  deleteAccountSchema,
  ownershipMessages,
} from '@tunesmith/shared/ownership';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import * as z from 'zod/mini';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, refusalMessage } from '@/lib/api-client';
import { setCurrentUser, type User } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useDeleteAccount } from '../api/delete-account';

type Field = 'currentPassword' | 'confirmation';

const confirmationLabel = `Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`;

const deleteFormSchema = z.extend(deleteAccountSchema, {
  confirmation: z.literal(DELETE_ACCOUNT_CONFIRMATION, { error: confirmationLabel }),
});

/** Whether the user pays through a Stripe subscription that deleting the account ends at once. */
export function hasRunningSubscription(user: Pick<User, 'planStatus' | 'stripeSubscriptionId'>): boolean {
  return (
    !!user.stripeSubscriptionId &&
    (user.planStatus === 'active' || user.planStatus === 'cancelled' || user.planStatus === 'inactive')
  );
}

/** The profile's danger zone: deleting the account, behind a dialog that asks twice. */
export function DeleteAccount({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const headingId = useId();
  return (
    <Card role="region" aria-labelledby={headingId} className="border-red-500/40">
      <CardHeader>
        <h2 id={headingId} className="text-xl font-semibold text-white">
          Danger Zone
        </h2>
        <p className="text-sm text-zinc-400">
          Delete your account and everything in it: your tracks with their audio, your uploads and your
          exports. This cannot be undone.
        </p>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          Delete Account
        </Button>
      </CardContent>
      {open ? <DeleteAccountDialog user={user} onClose={() => setOpen(false)} /> : null}
    </Card>
  );
}

/**
 * Says what goes and what happens to a running subscription, then asks for
 * the current password and the typed confirmation; the button waits for
 * both. On success this browser signs out and goes home with a toast.
 */
function DeleteAccountDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const id = useId();
  const passwordRef = useRef<HTMLInputElement | null>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleUnauthorized = useUnauthorizedHandler();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Field, z.infer<typeof deleteFormSchema>>(
    { currentPassword: '', confirmation: '' },
    deleteFormSchema,
  );

  const remove = useDeleteAccount({
    onSuccess: (answer) => {
      // The server has ended the session and cleared its cookies: forget the account here too.
      queryClient.clear();
      setCurrentUser(queryClient, null);
      navigate('/', { replace: true });
      toast({ title: 'Account deleted', description: answer.message ?? ownershipMessages.accountDeleting });
      onClose();
    },
    onError: (error) => {
      if (handleUnauthorized(error)) {
        onClose();
        return;
      }
      if (error instanceof ApiError && error.status === 400) {
        const message = refusalMessage(error, 'Please try again.');
        form.showErrors({ currentPassword: message });
        return;
      }
      setRefusal(refusalMessage(error, 'Your account could not be deleted. Please try again.'));
    },
  });

  // The button pressed is off while the request runs, so the browser drops focus to the page; a refusal
  // brings it back to the button once it is on again (a wrong password takes it to its field instead,
  // which stays focusable: read-only, not disabled, while the request runs).
  useEffect(() => {
    if (refusal && !remove.isPending) submitRef.current?.focus();
  }, [refusal, remove.isPending]);

  const ready =
    form.values.currentPassword !== '' && form.values.confirmation === DELETE_ACCOUNT_CONFIRMATION;
  const hintId = `${id}-hint`;
  // The password field takes focus when the dialog opens; react-hook-form keeps its own ref to it too.
  const registered = form.register('currentPassword');
  const passwordProps = {
    ...registered,
    ref: (element: HTMLInputElement | null) => {
      registered.ref(element);
      passwordRef.current = element;
    },
  };

  return (
    <Dialog
      open
      role="alertdialog"
      onClose={() => {
        if (!remove.isPending) onClose();
      }}
      title="Delete your account?"
      initialFocus={passwordRef}
      description={
        <div className="grid gap-3">
          <p>This deletes, for good:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>every track you made, with its audio files, public or private</li>
            <li>your uploads and your exports (their download links stop working)</li>
            <li>your profile and your sign-in</li>
          </ul>
          {hasRunningSubscription(user) ? (
            <p className="rounded-lg border border-amber-400/40 bg-amber-500/10 p-3 text-amber-100">
              {ownershipMessages.subscriptionEndsNow}
            </p>
          ) : null}
          <p>We email you when it is done. You can sign up again with the same address later.</p>
        </div>
      }
    >
      <form
        noValidate
        aria-label="Delete account"
        className="grid gap-4"
        onSubmit={form.handleSubmit((data) => {
          if (remove.isPending) return;
          setRefusal(null);
          remove.mutate({ currentPassword: data.currentPassword });
        })}
      >
        <FormField label="Current Password" {...form.fieldMeta('currentPassword')}>
          <PasswordInput
            {...passwordProps}
            required
            autoComplete="current-password"
            toggleLabel="current password"
            readOnly={remove.isPending}
          />
        </FormField>
        <FormField label={confirmationLabel} {...form.fieldMeta('confirmation')}>
          <Input
            {...form.register('confirmation')}
            required
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            readOnly={remove.isPending}
          />
        </FormField>
        {refusal ? (
          <p role="alert" className="text-sm text-red-300">
            {refusal}
          </p>
        ) : null}
        <p id={hintId} className="text-xs text-zinc-400">
          {ready
            ? 'Your account will be deleted when you press the button.'
            : `Enter your current password and type ${DELETE_ACCOUNT_CONFIRMATION} to continue.`}
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button
            ref={submitRef}
            type="submit"
            variant="destructive"
            disabled={!ready || remove.isPending}
            aria-describedby={hintId}
          >
            {remove.isPending ? 'Deleting...' : 'Delete My Account'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
