/** The site's public origin (`PUBLIC_ORIGIN`, no trailing slash): links in provenance records and licenses. */
export function publicOrigin(): string {
  const value = process.env.PUBLIC_ORIGIN;
  if (!value) throw new Error('Missing environment variable PUBLIC_ORIGIN');
  return value.replace(/\/+$/, '');
}
