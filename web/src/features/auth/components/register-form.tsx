import type { RegisterInput } from '@tunesmith/shared/auth';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { lazySchema, useForm } from '@/lib/use-form';
import { useRegister } from '../api/register';
import { savePendingVerification } from '../utils/pending-verification';

/** The sign-up schema, loaded once the form is used: the page paints and starts without the schema library. */
const registerValidation = lazySchema(() => import('@tunesmith/shared/auth').then((m) => m.registerSchema));

const emptyForm: Record<keyof RegisterInput, string> = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
};

export interface RegisterFormProps {
  /** A path on this site to go to after the first sign-in (checked by the caller), kept until then. */
  next?: string | null;
}

/** The Sign Up tab: creates the account, then sends the person to check their mail. */
export function RegisterForm({ next }: RegisterFormProps) {
  const navigate = useNavigate();
  const form = useForm<keyof RegisterInput, RegisterInput>(emptyForm, registerValidation);

  const registration = useRegister({
    onSuccess: (answer, input) => {
      const pending = {
        email: answer.email || input.email,
        firstName: answer.firstName || input.firstName,
      };
      savePendingVerification({ ...pending, next });
      toast({
        title: 'Registration Successful!',
        description: 'Please check your email to verify your account.',
      });
      navigate('/check-email', { state: pending });
    },
    onError: (error) => {
      toast({
        title: 'Registration failed',
        description: serverMessage(error, 'Failed to create account'),
        variant: 'destructive',
      });
    },
  });

  return (
    <form
      noValidate
      aria-label="Sign up"
      onSubmit={form.handleSubmit((data) => {
        if (!registration.isPending) registration.mutate(data);
      })}
      className="grid gap-5"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="First Name" {...form.fieldMeta('firstName')}>
          <Input {...form.register('firstName')} autoComplete="given-name" placeholder="Ada" />
        </FormField>
        <FormField label="Last Name" {...form.fieldMeta('lastName')}>
          <Input {...form.register('lastName')} autoComplete="family-name" placeholder="Lovelace" />
        </FormField>
      </div>
      <FormField label="Email" {...form.fieldMeta('email')}>
        <Input
          {...form.register('email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
        />
      </FormField>
      <FormField label="Password" {...form.fieldMeta('password')}>
        <PasswordInput {...form.register('password')} autoComplete="new-password" />
      </FormField>
      <FormField label="Confirm Password" {...form.fieldMeta('confirmPassword')}>
        <PasswordInput
          {...form.register('confirmPassword')}
          autoComplete="new-password"
          toggleLabel="confirm password"
        />
      </FormField>
      <Button type="submit" size="lg" disabled={registration.isPending} className="w-full">
        {registration.isPending ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  );
}
