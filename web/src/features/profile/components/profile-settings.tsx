import type { User } from '@/lib/auth';
import { useBillingReturn } from '../hooks/use-billing-return';
import { AccountSecurity } from './account-security';
import { BillingReturnNotice } from './billing-return-notice';
import { DeleteAccount } from './delete-account';
import { ExportMusicCard } from './export-music-card';
import { ProfileInfo } from './profile-info';
import { SubscriptionCard } from './subscription-card';
import { UpdateEmailForm } from './update-email-form';
import { UpdatePasswordForm } from './update-password-form';

export interface ProfileSettingsProps {
  user: User;
}

/**
 * The account settings of a signed-in user, with what Stripe's return to this
 * page means (a payment being confirmed, a cancelled checkout, how to switch
 * to Free).
 */
export function ProfileSettings({ user }: ProfileSettingsProps) {
  const notice = useBillingReturn();
  return (
    <>
      <BillingReturnNotice notice={notice} user={user} />
      <div className="grid gap-6 lg:grid-cols-2">
        <ProfileInfo user={user} />
        <SubscriptionCard user={user} confirming={notice?.kind === 'confirming'} />
        <UpdateEmailForm user={user} />
        <UpdatePasswordForm />
        <div className="lg:col-span-2">
          <ExportMusicCard />
        </div>
        <div className="lg:col-span-2">
          <AccountSecurity />
        </div>
        <div className="lg:col-span-2">
          <DeleteAccount user={user} />
        </div>
      </div>
    </>
  );
}
