import type { AdminSecondFactor } from '@tunesmith/shared/auth';
import { useState } from 'react';
import { AdminLoginForm } from './admin-login-form';
import { SecondFactorForm } from './second-factor-form';

/**
 * Administrator sign-in in two steps: the password, then the second factor
 * (setting up an authenticator at the first sign-in, its code afterwards).
 */
export function AdminSignIn() {
  const [step, setStep] = useState<AdminSecondFactor | undefined>();
  const [returned, setReturned] = useState(false);

  if (step) {
    return (
      <SecondFactorForm
        step={step}
        onRestart={() => {
          setReturned(true);
          setStep(undefined);
        }}
      />
    );
  }
  return <AdminLoginForm onSecondFactor={setStep} returned={returned} />;
}
