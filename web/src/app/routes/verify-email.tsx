import { useParams } from 'react-router';
import { VerifyEmailStatus } from '@/features/auth/components/verify-email-status';
import { pageTitle } from '@/lib/page-title';

export default function VerifyEmailRoute() {
  const { token } = useParams();
  return (
    <>
      <title>{pageTitle('Verify Your Email')}</title>
      <VerifyEmailStatus key={token} token={token} />
    </>
  );
}
