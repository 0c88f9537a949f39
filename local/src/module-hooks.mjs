// Plain JavaScript, like compiled.mjs: its test loads it in a Node process with no loader of its own.
import module from 'node:module';

/**
 * Runs `load` while `module.register` does nothing, then puts it back.
 *
 * Tailwind's Vite plugin (through @tailwindcss/node) registers a module-resolution hook as
 * it is imported, to reload a JavaScript config's or plugin's own imports when they change;
 * the SPA has neither (its CSS uses no `@config` or `@plugin`). On Node 20 such a hook runs on
 * a thread of its own, and every module this process imports after it (the SDKs and handlers
 * the API opens with, over a thousand) is resolved by a round trip to that thread: measured
 * on two cores, a fifth of a second of CPU while the emulators boot. Node 22's in-thread hooks
 * (`module.registerHooks`, which Tailwind prefers where it exists) are not touched.
 *
 * @template T
 * @param {() => Promise<T>} load
 * @returns {Promise<T>}
 */
export async function withoutModuleHooks(load) {
  const register = module.register;
  module.register = () => {};
  // The named export (`import { register } from 'node:module'`) follows the object's property.
  module.syncBuiltinESMExports();
  try {
    return await load();
  } finally {
    module.register = register;
    module.syncBuiltinESMExports();
  }
}
