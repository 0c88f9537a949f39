import type { SharePageDeps, SharePages } from '../domain/tracks/share-page';

/** Share documents kept in a map, as the site bucket and the edge's key store keep them; `failRemove` makes removal fail. */
export function inMemorySharePages(
  options: { failRemove?: () => boolean; failPublish?: () => boolean } = {},
): SharePages & {
  documents: Map<string, string>;
} {
  const documents = new Map<string, string>();
  return {
    documents,
    async publish(id, html) {
      if (options.failPublish?.()) throw new Error('site bucket unavailable');
      documents.set(id, html);
    },
    async remove(id) {
      if (options.failRemove?.()) throw new Error('site bucket unavailable');
      documents.delete(id);
    },
  };
}

/** A small SPA shell, as Vite builds index.html. */
export const SHELL_TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="The shell's own description."
    />
    <title>Tunesmith: Create Music with AI</title>
    <script type="module" src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

/** Share-page dependencies over the given store and documents, with a fixed site. */
export function shareDeps(
  generations: SharePageDeps['generations'],
  pages: SharePages,
  options: { template?: string; name?: string; origin?: string } = {},
): SharePageDeps {
  return {
    generations,
    pages,
    template: async () => options.template ?? SHELL_TEMPLATE,
    site: {
      origin: options.origin ?? 'https://tunesmith.example',
      name: async () => options.name ?? 'Tunesmith',
    },
  };
}
