import { authMessages, emailOnlySchema } from '@tunesmith/shared/auth';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { useRequestPasswordReset } from '../api/request-password-reset';

/** Forgot Password?: asks for the address and mails a reset link to it. */
export function ForgotPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const form = useForm<'email', { email: string }>({ email: '' }, emailOnlySchema);

  const close = () => {
    form.reset();
    onClose();
  };

  const reset = useRequestPasswordReset({
    onSuccess: (answer) => {
      toast({ title: 'Reset Email Sent', description: answer.message || authMessages.resetRequested });
      close();
    },
    onError: (error) => {
      toast({
        title: 'Reset Failed',
        description: serverMessage(error, 'Failed to send reset email'),
        variant: 'destructive',
      });
    },
  });

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Reset Your Password"
      description="Enter your email address and we'll send you a link to reset your password."
    >
      <form
        noValidate
        aria-label="Reset your password"
        onSubmit={form.handleSubmit((data) => {
          if (!reset.isPending) reset.mutate(data);
        })}
        className="grid gap-5"
      >
        <FormField label="Email" {...form.fieldMeta('email')}>
          <Input
            {...form.register('email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
          />
        </FormField>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={reset.isPending}>
            {reset.isPending ? 'Sending...' : 'Send Reset Link'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
