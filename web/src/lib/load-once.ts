/**
 * A loader that asks once: every later call gets the same answer, and only a
 * failed load is asked again on the next call (a dropped connection must not
 * leave the page without the code for good).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
