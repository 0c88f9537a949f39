import { SUPPORT_HOURS } from '@tunesmith/shared/constants';
import { Card } from '@/components/ui/card';
import { site } from '@/lib/site';

export function ContactInfo() {
  return (
    <Card className="p-6">
      <h2 className="text-xl font-semibold text-white">Contact Information</h2>
      <dl className="mt-4 grid gap-4 text-sm">
        <div>
          <dt className="font-medium text-zinc-400">Support</dt>
          <dd>
            <a
              className="rounded text-fuchsia-300 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-violet-300"
              href={`mailto:${site.supportEmail}`}
            >
              {site.supportEmail}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-medium text-zinc-400">General enquiries</dt>
          <dd>
            <a
              className="rounded text-fuchsia-300 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-violet-300"
              href={`mailto:${site.contactEmail}`}
            >
              {site.contactEmail}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-medium text-zinc-400">Response time</dt>
          <dd className="text-zinc-200">We reply within 24 hours, {SUPPORT_HOURS}.</dd>
        </div>
      </dl>
    </Card>
  );
}
