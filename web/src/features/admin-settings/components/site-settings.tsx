import { STRIPE_WEBHOOK_EVENTS } from '@tunesmith/shared/billing';
import type { SettingKey } from '@tunesmith/shared/settings';
import { useSearchParams } from 'react-router';
import { LoadFailed } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { toast } from '@/lib/toast';
import { useSettings } from '../api/settings';
import { ChangePasswordForm } from './change-password-form';
import { SettingField } from './setting-field';

const tabs = ['general', 'stripe', 'webhooks', 'security'] as const;
type SettingsTab = (typeof tabs)[number];

const isTab = (value: string | null): value is SettingsTab => tabs.includes(value as SettingsTab);

const labels: Record<SettingKey, string> = {
  site_name: 'Site Name',
  site_description: 'Site Description',
  support_email: 'Support Email',
  contact_email: 'Contact Email',
  stripe_publishable_key: 'Stripe Publishable Key',
  stripe_secret_key: 'Stripe Secret Key',
  stripe_webhook_secret: 'Stripe Webhook Secret',
  fal_api_key: 'fal.ai API Key',
};

function SettingsGroup({ keys }: { keys: readonly SettingKey[] }) {
  const settings = useSettings();
  if (settings.isLoading) return <Spinner label="Loading settings" />;
  if (settings.isError) return <LoadFailed what="settings" onRetry={() => void settings.refetch()} />;
  return (
    <div className="grid gap-6">
      {keys.map((key) => {
        const setting = settings.data?.find((s) => s.key === key);
        return setting ? <SettingField key={key} setting={setting} label={labels[key]} /> : null;
      })}
    </div>
  );
}

function Webhooks() {
  const endpoint = `${window.location.origin}/api/webhooks/stripe`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(endpoint);
      toast({ title: 'Copied', description: 'The webhook endpoint address is on your clipboard.' });
    } catch {
      toast({
        title: 'Copy Failed',
        description: 'Select the address and copy it yourself.',
        variant: 'destructive',
      });
    }
  };
  return (
    <div className="grid gap-4 text-sm text-zinc-300">
      <p>
        In the Stripe dashboard (Developers, Webhooks) add an endpoint with this address, choose the events
        below, and save its signing secret (whsec_...) as the Stripe Webhook Secret.
      </p>
      <div className="grid gap-2">
        <label htmlFor="webhook-endpoint" className="font-medium text-zinc-200">
          Webhook Endpoint
        </label>
        <div className="flex gap-2">
          <Input
            id="webhook-endpoint"
            readOnly
            value={endpoint}
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button variant="outline" onClick={() => void copy()}>
            Copy
          </Button>
        </div>
      </div>
      <div>
        <h3 id="webhook-events" className="font-medium text-zinc-200">
          Events to send
        </h3>
        <ul aria-labelledby="webhook-events" className="mt-2 grid gap-1 font-mono text-xs">
          {STRIPE_WEBHOOK_EVENTS.map((event) => (
            <li key={event}>{event}</li>
          ))}
        </ul>
      </div>
    </div>
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
          {
            value: 'general',
            label: 'General',
            content: (
              <SettingsGroup keys={['site_name', 'site_description', 'support_email', 'contact_email']} />
            ),
          },
          {
            value: 'stripe',
            label: 'Stripe',
            content: (
              <SettingsGroup
                keys={['stripe_publishable_key', 'stripe_secret_key', 'stripe_webhook_secret', 'fal_api_key']}
              />
            ),
          },
          { value: 'webhooks', label: 'Webhooks', content: <Webhooks /> },
          {
            value: 'security',
            label: 'Security',
            content: (
              <div className="grid gap-4">
                <div>
                  <h2 className="text-lg font-semibold text-white">Change Admin Password</h2>
                  <p className="text-sm text-zinc-400">Use at least 12 characters.</p>
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
