import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { pageTitle } from '@/lib/page-title';

function ComingSoon({ title, text }: { title: string; text: string }) {
  return (
    <div className="mx-auto grid max-w-xl place-items-center px-4 py-24">
      <title>{pageTitle(title)}</title>
      <Card className="w-full p-8 text-center">
        <h1 className="text-3xl font-bold text-white">{title}</h1>
        <p className="mt-4 text-zinc-300">{text}</p>
        <p className="mt-2 text-sm text-zinc-400">This part of Tunesmith is coming soon.</p>
        <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
          Back to home
        </Link>
      </Card>
    </div>
  );
}

export function Track() {
  return <ComingSoon title="Shared Track" text="Shared tracks will play on this page." />;
}
