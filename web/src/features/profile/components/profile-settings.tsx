import type { Plan } from '@tunesmith/shared/plans';
import type { User } from '@/lib/auth';
import { AccountSecurity } from './account-security';
import { ProfileInfo } from './profile-info';
import { SubscriptionCard } from './subscription-card';
import { UpdateEmailForm } from './update-email-form';
import { UpdatePasswordForm } from './update-password-form';

export interface ProfileSettingsProps {
  user: User;
  /** The plan list, to name the user's plan and its quota. */
  plans: Plan[] | undefined;
  plansLoading: boolean;
}

/** The account settings of a signed-in user. */
export function ProfileSettings({ user, plans, plansLoading }: ProfileSettingsProps) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ProfileInfo user={user} />
      <SubscriptionCard user={user} plans={plans} plansLoading={plansLoading} />
      <UpdateEmailForm user={user} />
      <UpdatePasswordForm />
      <div className="lg:col-span-2">
        <AccountSecurity />
      </div>
    </div>
  );
}
