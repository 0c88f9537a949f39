import { PrivacyPolicy } from '@/features/legal/components/privacy-policy';
import { pageTitle } from '@/lib/page-title';

export default function PrivacyRoute() {
  return (
    <>
      <title>{pageTitle('Privacy Policy')}</title>
      <PrivacyPolicy />
    </>
  );
}
