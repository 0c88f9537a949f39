// `npm start`: start.ts, compiled once and kept (compiled.mjs), run by Node as it is.
import { pathToFileURL } from 'node:url';
import { localCloudEntry } from './compiled.mjs';

// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
let entry;
try {
  entry = await localCloudEntry('start');
} catch (error) {
  console.error(
    `The local cloud's code did not compile:\n${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
await import(pathToFileURL(entry).href);
