/**
 * `npx tsx scripts/cpu-profile-top.ts <file.cpuprofile> [count]`: the functions a V8 CPU
 * profile (`node --cpu-prof`) spent its samples in, by self time and by total time (self
 * plus everything called below it), each with its share of the samples, its file and line.
 * Idle time is left out of the shares, so they say where the busy time went.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Entry {
  function: string;
  where: string;
  ms: number;
  share: number;
}

/** The npm package a script belongs to (scoped names whole), `node:` for Node's own, else `ours`. */
function packageOf(url: string): string {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node:';
  const at = url.lastIndexOf('/node_modules/');
  if (at < 0) return 'ours';
  const [first, second] = url.slice(at + '/node_modules/'.length).split('/');
  // The local cloud's compiled build lives under node_modules/.cache but is our code.
  if (first === '.cache') return 'ours';
  return first?.startsWith('@') ? `${first}/${second}` : (first ?? '?');
}

const maps = new Map<string, SourceMap | undefined>();

/** The source map beside a compiled file (the local cloud's build keeps one), if any. */
function sourceMapOf(path: string): SourceMap | undefined {
  if (!maps.has(path)) {
    const file = `${path}.map`;
    maps.set(path, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : undefined);
  }
  return maps.get(path);
}

/** A frame's file and line, in the source it was compiled from where a source map says. */
function where(frame: CallFrame, root: string): string {
  if (!frame.url) return '(native)';
  let path = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  let line = frame.lineNumber + 1;
  // An empty object where the map has no entry for the position.
  const entry = (
    path.startsWith('node:') ? undefined : sourceMapOf(path)?.findEntry(frame.lineNumber, frame.columnNumber)
  ) as { originalSource?: string; originalLine: number } | undefined;
  const source = entry?.originalSource;
  if (entry && source) {
    path = source.startsWith('file://') ? fileURLToPath(source) : resolve(dirname(path), source);
    line = entry.originalLine + 1;
  }
  const shown = path.startsWith(root) ? relative(root, path) : path;
  return `${shown}:${line}`;
}

/** Self and total time per function (name and location), busiest first; `busy` excludes idle. */
export function summarise(profile: Profile, root: string) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const key = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'}\t${where(node.callFrame, root)}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const packages = new Map<string, number>();
  let all = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id) as ProfileNode;
    all += us;
    if (node.callFrame.functionName === '(idle)') idle += us;
    self.set(key(node), (self.get(key(node)) ?? 0) + us);
    // A function's total counts each sample once, however often it recurses; so does a package's.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at) as ProfileNode;
      const k = key(frame);
      const pkg = `[${packageOf(frame.callFrame.url)}]`;
      if (!seen.has(pkg)) {
        seen.add(pkg);
        packages.set(pkg, (packages.get(pkg) ?? 0) + us);
      }
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
  const busy = all - idle;
  const rank = (times: Map<string, number>): Entry[] =>
    [...times]
      .filter(([k]) => !k.startsWith('(idle)\t') && !k.startsWith('(root)\t') && !k.startsWith('[(native)]'))
      .map(([k, us]) => {
        const [fn, at] = k.split('\t') as [string, string];
        return { function: fn, where: at, ms: us / 1000, share: busy > 0 ? us / busy : 0 };
      })
      .sort((a, b) => b.ms - a.ms);
  return {
    busyMs: busy / 1000,
    idleMs: idle / 1000,
    self: rank(self),
    total: rank(total),
    packages: rank(new Map([...packages].map(([k, us]) => [`${k}\t`, us]))),
  };
}

const [file, countArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx scripts/cpu-profile-top.ts <file.cpuprofile> [count]');
  process.exit(2);
}
const count = Number(countArg) || 25;
const root = new URL('../', import.meta.url).pathname;
const { busyMs, idleMs, self, total, packages } = summarise(
  JSON.parse(readFileSync(file, 'utf8')) as Profile,
  root,
);
const row = (e: Entry) =>
  `${e.ms.toFixed(0).padStart(8)} ms ${(e.share * 100).toFixed(1).padStart(5)}%  ${e.function}  ${e.where}`;
console.log(`busy ${busyMs.toFixed(0)} ms, idle ${idleMs.toFixed(0)} ms`);
console.log('\nby self time:');
for (const e of self.slice(0, count)) console.log(row(e));
console.log('\nby total time:');
for (const e of total.slice(0, count)) console.log(row(e));
console.log('\nby package, total time (a sample counts for every package on its stack):');
for (const e of packages.slice(0, count)) console.log(row(e));
