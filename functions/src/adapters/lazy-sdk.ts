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

/** The names of a port's asynchronous methods. */
type AsyncMethod<Port> = {
  [Name in keyof Port]: Port[Name] extends (...args: never[]) => Promise<unknown> ? Name : never;
}[keyof Port];

/**
 * The `methods` of a port whose adapter (and the wiring and SDK behind it) is
 * loaded on the first call of one of them, as {@link lazySdk} loads a client:
 * a route group hands it to the domain in place of the adapter, and only the
 * requests that call it load it (decision 042). Each call awaits the load,
 * then the adapter's method. A method the domain needs but `methods` leaves
 * out is a type error where the port is handed over.
 */
export function lazyPort<Port, Name extends AsyncMethod<Port>>(
  load: () => Promise<Port>,
  methods: readonly Name[],
): Pick<Port, Name> {
  const adapter = lazySdk(load, (loaded) => loaded);
  const port = {} as Pick<Port, Name>;
  for (const name of methods) {
    const call = async (...args: unknown[]) => {
      const { client } = await adapter();
      return (client[name] as (...a: unknown[]) => Promise<unknown>).apply(client, args);
    };
    port[name] = call as Port[Name];
  }
  return port;
}
