import { useSearchParams } from 'react-router';
import { Card } from '@/components/ui/card';
import { Tabs } from '@/components/ui/tabs';
import { ChangePasswordForm } from './change-password-form';

const tabs = ['general', 'stripe', 'webhooks', 'security'] as const;
type SettingsTab = (typeof tabs)[number];

const isTab = (value: string | null): value is SettingsTab => tabs.includes(value as SettingsTab);

function LaterRelease({ what }: { what: string }) {
  return (
    <p className="rounded-lg border border-white/10 bg-zinc-950/40 p-4 text-sm text-zinc-300">
      {what} settings are coming in a later release.
    </p>
  );
}

/** Site Settings: four tabs; the selected one is kept in the address (`?tab=security`). */
export function SiteSettings() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: SettingsTab = isTab(requested) ? requested : 'general';

  return (
    <Card className="p-6">
      <Tabs
        label="Settings sections"
        value={tab}
        onChange={(next) => setParams({ tab: next }, { replace: true })}
        listClassName="max-w-xl"
        items={[
          { value: 'general', label: 'General', content: <LaterRelease what="General" /> },
          { value: 'stripe', label: 'Stripe', content: <LaterRelease what="Payment" /> },
          { value: 'webhooks', label: 'Webhooks', content: <LaterRelease what="Webhook" /> },
          {
            value: 'security',
            label: 'Security',
            content: (
              <div className="grid gap-4">
                <div>
                  <h2 className="text-lg font-semibold text-white">Change Admin Password</h2>
                  <p className="text-sm text-zinc-400">Use at least 6 characters.</p>
                </div>
                <ChangePasswordForm />
              </div>
            ),
          },
        ]}
      />
    </Card>
  );
}
