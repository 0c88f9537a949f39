/**
 * An AWS SDK client made on first use, its module loaded with `await
 * import()`: the Lambda bundles split such modules into chunks of their own
 * (infra/lib/lambda-bundle.ts), so a route that never calls the service never
 * loads its code. Every later call gets the same module and client; a failed
 * load is tried again on the next call.
 */
export type LazySdk<Sdk, Client> = () => Promise<{ sdk: Sdk; client: Client }>;

export function lazySdk<Sdk, Client>(
  load: () => Promise<Sdk>,
  make: (sdk: Sdk) => Client,
): LazySdk<Sdk, Client> {
  let loaded: Promise<{ sdk: Sdk; client: Client }> | undefined;
  return () => {
    loaded ??= load()
      .then((sdk) => ({ sdk, client: make(sdk) }))
      .catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
    return loaded;
  };
}
