import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const helper = pathToFileURL(fileURLToPath(new URL('./module-hooks.mjs', import.meta.url))).href;
const dir = mkdtempSync(path.join(tmpdir(), 'module-hooks-'));
// Tailwind's hook passes an importer's `?id=` on to what it imports: the sign that it is registered.
writeFileSync(path.join(dir, 'parent.mjs'), 'import "./child.mjs";\n');
writeFileSync(path.join(dir, 'child.mjs'), 'globalThis.childUrl = import.meta.url;\n');

/** In a Node process with no loader of its own: imports @tailwindcss/node (wrapped or not), then a module with `?id=`, and prints what its import was resolved to. */
function childUrlAfterTailwind(wrapped: boolean): string {
  const script = `
    import { withoutModuleHooks } from ${JSON.stringify(helper)};
    const load = () => import('@tailwindcss/node');
    await (${wrapped} ? withoutModuleHooks(load) : load());
    await import(${JSON.stringify(`${pathToFileURL(path.join(dir, 'parent.mjs')).href}?id=7`)});
    const { register } = await import('node:module');
    console.log(JSON.stringify({ childUrl: globalThis.childUrl, restored: typeof register === 'function' && register.length }));
  `;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe('withoutModuleHooks', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps Tailwind's module hook from being registered while it loads, and gives register back", () => {
    const plain = JSON.parse(childUrlAfterTailwind(false));
    const wrapped = JSON.parse(childUrlAfterTailwind(true));

    // Loaded as is, its hook resolves every later import (here, it tags the child with the parent's id).
    expect(plain.childUrl).toMatch(/child\.mjs\?id=7$/);
    expect(wrapped.childUrl).toBe(pathToFileURL(path.join(dir, 'child.mjs')).href);
    // Node's own register is back afterwards, under both names.
    expect(wrapped.restored).toBeGreaterThan(0);
  });
});
