import { SiteSettings } from '@/features/admin-settings/components/site-settings';
import { pageTitle } from '@/lib/page-title';

export default function AdminSettingsRoute() {
  return (
    <section className="mx-auto max-w-5xl">
      <title>{pageTitle('Site Settings · Admin')}</title>
      <h1 className="mb-6 text-3xl font-bold text-white">Site Settings</h1>
      <SiteSettings />
    </section>
  );
}
