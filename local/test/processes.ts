import { execFileSync } from 'node:child_process';

interface ProcessRow {
  pid: number;
  ppid: number;
  zombie: boolean;
}

function processTable(): ProcessRow[] {
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid=,stat='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, stat] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), zombie: (stat ?? '').startsWith('Z') };
    });
}

/** Every live process below `root` in the process tree. */
export function descendants(root: number): number[] {
  const rows = processTable().filter((row) => !row.zombie);
  const found: number[] = [];
  let frontier = [root];
  while (frontier.length) {
    const children = rows.filter((row) => frontier.includes(row.ppid)).map((row) => row.pid);
    found.push(...children);
    frontier = children;
  }
  return found;
}

/** The pids from `pids` that still run (zombies count as gone: only a reaper is missing). */
export function alive(pids: number[]): number[] {
  const live = new Set(
    processTable()
      .filter((row) => !row.zombie)
      .map((row) => row.pid),
  );
  return pids.filter((pid) => live.has(pid));
}

/** Waits until none of `pids` runs, or the timeout; returns the survivors. */
export async function waitForExit(pids: number[], timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = alive(pids);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
