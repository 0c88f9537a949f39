import { TermsOfService } from '@/features/legal/components/terms-of-service';
import { pageTitle } from '@/lib/page-title';

export default function TermsRoute() {
  return (
    <>
      <title>{pageTitle('Terms of Service')}</title>
      <TermsOfService />
    </>
  );
}
