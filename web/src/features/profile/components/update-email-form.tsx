import { authMessages, updateEmailSchema } from '@tunesmith/shared/auth';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { serverMessage } from '@/lib/api-client';
import type { User } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useUpdateEmail } from '../api/update-email';

type Field = 'newEmail' | 'currentPassword';

/**
 * Asks to change the sign-in address, with the current password as proof.
 * The change happens when the link mailed to the new address is followed;
 * the current address is told. The same address as now is refused before any call.
 */
export function UpdateEmailForm({ user }: { user: User }) {
  const handleUnauthorized = useUnauthorizedHandler();
  const form = useForm<Field, Record<Field, string>>(
    { newEmail: '', currentPassword: '' },
    updateEmailSchema,
  );

  const update = useUpdateEmail({
    onSuccess: (answer) => {
      form.reset();
      toast({ title: authMessages.emailChangeSentTitle, description: answer.message });
    },
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      toast({
        title: 'Failed to update email',
        description: serverMessage(error, 'Please try again.'),
        variant: 'destructive',
      });
    },
  });

  return (
    <Card>
      <CardHeader>
        <h2 className="text-xl font-semibold text-white">Update Email</h2>
        <p className="text-sm text-zinc-400">
          Change the address you sign in with. We send a confirmation link to the new address and your email
          changes once you follow it; your current address is told about the request.
        </p>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Update email"
          onSubmit={form.handleSubmit((data) => {
            if (update.isPending) return;
            if (data.newEmail === user.email?.trim().toLowerCase()) {
              form.showErrors({ newEmail: authMessages.noChanges });
              return;
            }
            update.mutate(data);
          })}
          className="grid gap-4"
        >
          <FormField label="New Email" {...form.fieldMeta('newEmail')}>
            <Input
              {...form.register('newEmail')}
              type="email"
              required
              autoComplete="email"
              inputMode="email"
              placeholder="you@example.com"
            />
          </FormField>
          <FormField label="Current Password" {...form.fieldMeta('currentPassword')}>
            <PasswordInput
              {...form.register('currentPassword')}
              required
              autoComplete="current-password"
              toggleLabel="current password"
            />
          </FormField>
          <Button type="submit" disabled={update.isPending} className="justify-self-start">
            {update.isPending ? 'Updating...' : 'Update Email'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
