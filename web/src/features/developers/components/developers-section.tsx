import { useId } from 'react';
import { Link } from 'react-router';
import { ApiKeysCard } from './api-keys-card';
import { WebhooksCard } from './webhooks-card';

/** Profile → Developers: the user's API keys and webhook endpoints, and where the API is documented. */
export function DevelopersSection() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-10 grid gap-6">
      <header className="grid gap-2">
        <h2 id={headingId} className="text-2xl font-semibold text-white">
          Developers
        </h2>
        <p className="text-sm text-zinc-300">
          Make music from your own apps, bots and pipelines with the Tunesmith API: the same quota and plan
          rules as here.{' '}
          <Link
            to="/developers"
            className="font-medium text-violet-300 underline underline-offset-2 hover:text-violet-200"
          >
            Read the API documentation
          </Link>
          .
        </p>
      </header>
      <ApiKeysCard />
      <WebhooksCard />
    </section>
  );
}
