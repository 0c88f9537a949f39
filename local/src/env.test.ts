import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localEnvVars, startEnvVars } from './env';

const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
const documented = new Map(
  example
    .split('\n')
    .filter((line) => /^[A-Z0-9_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

describe('.env.example', () => {
  it('documents every variable the local cloud and npm start use, with its local default', () => {
    for (const entry of [...localEnvVars, ...startEnvVars]) {
      expect(documented.has(entry.name), entry.name).toBe(true);
      if (!entry.local.includes(' ')) expect(documented.get(entry.name), entry.name).toBe(entry.local);
    }
  });
});
