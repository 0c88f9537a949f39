import { CheckEmail } from '@/features/auth/components/check-email';
import { pageTitle } from '@/lib/page-title';

export default function CheckEmailRoute() {
  return (
    <>
      <title>{pageTitle('Check Your Email')}</title>
      <CheckEmail />
    </>
  );
}
