import { useParams } from 'react-router';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { pageTitle } from '@/lib/page-title';

export default function ResetPasswordRoute() {
  const { token } = useParams();
  return (
    <div className="mx-auto grid max-w-md px-4 py-16 sm:py-24">
      <title>{pageTitle('Reset Your Password')}</title>
      <ResetPasswordForm key={token} token={token} />
    </div>
  );
}
