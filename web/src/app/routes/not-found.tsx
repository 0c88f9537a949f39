import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { pageTitle } from '@/lib/page-title';

export default function NotFoundRoute() {
  return (
    <div className="mx-auto grid max-w-xl place-items-center px-4 py-24">
      <title>{pageTitle('Page Not Found')}</title>
      <Card className="w-full p-8 text-center">
        <h1 className="text-3xl font-bold text-white">404 Page Not Found</h1>
        <p className="mt-4 text-sm text-zinc-400">Did you forget to add the page to the router?</p>
        <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
          Go Home
        </Link>
      </Card>
    </div>
  );
}
