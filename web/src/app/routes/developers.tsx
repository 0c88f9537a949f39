import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useOpenApi } from '@/features/developers/api/get-openapi';
import { ApiReference } from '@/features/developers/components/api-reference';
import { pageTitle } from '@/lib/page-title';

/** The API reference for developers, drawn from `GET /api/v1/openapi.json`. */
export default function DevelopersRoute() {
  const openApi = useOpenApi();
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
      <title>{pageTitle('Developers')}</title>
      <header className="mb-10 max-w-3xl">
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">Tunesmith API</h1>
        <p className="mt-4 text-lg text-zinc-300">
          Make music from your own apps, bots and pipelines, with the same plan, quota and rules as the app.
        </p>
      </header>
      {openApi.data ? (
        <ApiReference doc={openApi.data} />
      ) : openApi.isError && !openApi.isFetching ? (
        <Card role="alert" className="max-w-xl p-6">
          <h2 className="text-lg font-semibold text-white">The API reference could not be loaded</h2>
          <p className="mt-2 text-zinc-300">Check your connection and try again.</p>
          <Button className="mt-4" onClick={() => openApi.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <div className="grid min-h-[30vh] place-items-center">
          <Spinner label="Loading the API reference" className="[&>span:first-child]:size-8" />
        </div>
      )}
    </div>
  );
}
