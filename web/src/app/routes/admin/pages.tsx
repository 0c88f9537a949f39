import { Card } from '@/components/ui/card';
import { pageTitle } from '@/lib/page-title';

function ComingLater({ title, text }: { title: string; text: string }) {
  return (
    <section className="mx-auto max-w-5xl">
      <title>{pageTitle(`${title} · Admin`)}</title>
      <h1 className="text-3xl font-bold text-white">{title}</h1>
      <Card className="mt-6 p-6">
        <p className="text-zinc-200">{text}</p>
        <p className="mt-2 text-sm text-zinc-400">This section is coming in a later release.</p>
      </Card>
    </section>
  );
}

export function Dashboard() {
  return (
    <ComingLater
      title="Dashboard"
      text="Totals for users, generations and public and private tracks will be shown here."
    />
  );
}

export function Users() {
  return (
    <ComingLater
      title="User Management"
      text="You will review accounts, their plans and email verification here."
    />
  );
}

export function Plans() {
  return (
    <ComingLater title="Subscription Plans" text="You will create and edit plans, prices and quotas here." />
  );
}

export function Tracks() {
  return (
    <ComingLater
      title="Music Tracks"
      text="You will browse every track, rename it, hide it from the gallery or delete it here."
    />
  );
}
