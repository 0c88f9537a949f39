// Plain JavaScript, like compiled.mjs: its test loads it in a Node process with no loader of its own.
import module from 'node:module';

/**
 * Runs `load` while `module.register` and `module.registerHooks` do nothing, then puts them back.
 *
 * Tailwind's Vite plugin (through @tailwindcss/node) registers a module-resolution hook as
 * it is imported, to reload a JavaScript config's or plugin's own imports when they change;
 * the SPA has neither (its CSS uses no `@config` or `@plugin`). Every module this process
 * imports after it (the SDKs and handlers the API opens with, over a thousand) would then be
 * resolved through that hook: on a thread of its own with `module.register` (measured on two
 * cores, a fifth of a second of CPU while the emulators boot), in this thread with
 * `module.registerHooks` (Node 22.15 and later, which Tailwind prefers where it exists).
 *
 * @template T
 * @param {() => Promise<T>} load
 * @returns {Promise<T>}
 */
export async function withoutModuleHooks(load) {
  const { register, registerHooks } = module;
  module.register = () => {};
  // registerHooks answers an object whose deregister() removes the hooks.
  if (registerHooks) module.registerHooks = () => ({ deregister() {} });
  // The named exports (`import { register } from 'node:module'`) follow the object's properties.
  module.syncBuiltinESMExports();
  try {
    return await load();
  } finally {
    module.register = register;
    if (registerHooks) module.registerHooks = registerHooks;
    module.syncBuiltinESMExports();
  }
}
