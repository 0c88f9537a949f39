import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { lowerPriority } from './processes';

/** How DynamoDB Local's JVM is started: its class path, main class and class-data sharing. */
export interface DynamoDbJvm {
  /** JVM arguments up to and including the main class (the jar's own arguments follow). */
  readonly args: string[];
  /** `use`: maps the archive; `dump`: writes it as it exits; `none`: neither. */
  readonly archive: 'use' | 'dump' | 'none';
  /** After the JVM has ended with `code`: a dumping JVM's archive is kept if it ended cleanly. */
  ended(code: number | null): void;
  /** Drops the archive in use: the JVM failed to start with it. */
  discard(): void;
  /** Once the JVM answers: prepares what the next start needs; never rejects, and need not be awaited. */
  prepareNext(): Promise<void>;
}

/** The exit codes of a JVM that ended as asked: on its own, or on SIGTERM (128 + 15). */
const cleanExit = new Set([0, 143]);

/** Archives left by a dumping JVM that was killed: removed after this long. */
const STALE_DUMP_MS = 10 * 60_000;

/**
 * DynamoDB Local's JVM with class-data sharing (AppCDS): the ~3 600 classes it loads,
 * parsed and verified once, kept in an archive that later JVMs map instead of reading
 * them from ~100 jars (its first answer comes about a second sooner on two cores).
 * CDS accepts a class path of jars only, and the DynamoDB Local jar's manifest names
 * its own directory (`Class-Path: .`), so the archive is made for a copy of that jar,
 * with the launcher class inside and no `Class-Path`, followed by the library jars one
 * by one. One step per start: the copy is made (with the JDK's `jar`, in the background,
 * once the JVM answers), then the JVM writes the archive as it exits cleanly
 * (`-XX:ArchiveClassesAtExit`, kept only after a clean exit: a partial archive would crash
 * the next JVM), then later JVMs map it (`-XX:SharedArchiveFile`). Everything lives in a
 * directory of `cacheDir` named by a digest of the launcher, the jar, the Java runtime and its options,
 * so a change to any of them starts over; when a step fails the JVM starts as before.
 *
 * `launcherDir` holds the compiled `LoopbackDynamoDB.class`; without it (no JDK) the jar
 * starts on its own and nothing is cached.
 */
export function dynamoDbJvm(options: {
  home: string;
  jar: string;
  launcherDir: string | undefined;
  cacheDir: string;
  /** The JVM options it runs with: they decide which classes it loads, so the archive is made for them. */
  options: readonly string[];
}): DynamoDbJvm {
  const nothing = async () => {};
  const none = (args: string[], prepareNext = nothing): DynamoDbJvm => ({
    args,
    archive: 'none',
    ended: () => {},
    discard: () => {},
    prepareNext,
  });
  const { home, jar, launcherDir } = options;
  if (!launcherDir) return none(['-jar', jar]);
  const launcherArgs = ['-cp', `${launcherDir}${path.delimiter}${jar}`, 'LoopbackDynamoDB'];
  let dir: string;
  let libraries: string[];
  try {
    const jarStat = statSync(jar);
    const digest = createHash('sha256')
      .update(launcherDir)
      .update(`${jarStat.size}:${jarStat.mtimeMs}`)
      .update(javaIdentity())
      .update(options.options.join('\n'))
      .digest('hex')
      .slice(0, 16);
    dir = path.join(options.cacheDir, `cds-${digest}`);
    const libDir = path.join(home, 'DynamoDBLocal_lib');
    libraries = readdirSync(libDir)
      .filter((file) => file.endsWith('.jar'))
      .sort()
      .map((file) => path.join(libDir, file));
  } catch {
    return none(launcherArgs);
  }
  const appJar = path.join(dir, 'DynamoDBLocal.jar');
  const archive = path.join(dir, 'classes.jsa');
  if (!existsSync(appJar)) return none(launcherArgs, () => buildAppJar({ jar, launcherDir, dir }));

  const classPath = ['-cp', [appJar, ...libraries].join(path.delimiter), 'LoopbackDynamoDB'];
  // Its notes on classes it leaves out of an archive would fill the log.
  const quietSharing = ['-Xlog:cds=off', '-Xlog:cds+dynamic=off'];
  if (existsSync(archive)) {
    return {
      args: [`-XX:SharedArchiveFile=${archive}`, ...quietSharing, ...classPath],
      archive: 'use',
      ended: () => {},
      discard: () => rmSync(archive, { force: true }),
      prepareNext: nothing,
    };
  }
  removeStaleDumps(dir);
  // Written aside and renamed into place after a clean exit: other JVMs may be dumping too.
  const dump = `${archive}.${process.pid}.${Date.now()}`;
  return {
    args: [`-XX:ArchiveClassesAtExit=${dump}`, ...quietSharing, ...classPath],
    archive: 'dump',
    ended(code) {
      try {
        if (code !== null && cleanExit.has(code) && statSync(dump).size > 0) renameSync(dump, archive);
      } catch {
        // Not written: the next start dumps again.
      } finally {
        rmSync(dump, { force: true });
      }
    },
    discard: () => {},
    prepareNext: nothing,
  };
}

/**
 * The copy of the DynamoDB Local jar that CDS accepts: the launcher class added and the
 * manifest's `Class-Path` emptied, made aside and renamed into place. Runs in the
 * background at a low priority; a failure (no `jar` tool) leaves nothing behind.
 */
function buildAppJar(options: { jar: string; launcherDir: string; dir: string }): Promise<void> {
  const staging = `${options.dir}.${process.pid}`;
  const discard = () => rmSync(staging, { recursive: true, force: true });
  return new Promise<void>((resolve) => {
    try {
      mkdirSync(staging, { recursive: true });
      const copy = path.join(staging, path.basename(options.jar));
      copyFileSync(options.jar, copy);
      const manifest = path.join(staging, 'manifest.txt');
      writeFileSync(manifest, 'Class-Path: \n');
      const tool = execFile(
        'jar',
        [
          '--update',
          '--file',
          copy,
          '--manifest',
          manifest,
          '-C',
          options.launcherDir,
          'LoopbackDynamoDB.class',
        ],
        (error) => {
          try {
            if (error) throw error;
            rmSync(manifest);
            renameSync(staging, options.dir);
          } catch {
            discard(); // failed, or another start got there first
          }
          resolve();
        },
      );
      lowerPriority(tool.pid);
    } catch {
      discard();
      resolve();
    }
  });
}

/** Removes archives that dumping JVMs killed before they exited left behind. */
function removeStaleDumps(dir: string): void {
  try {
    for (const file of readdirSync(dir)) {
      if (!file.startsWith('classes.jsa.')) continue;
      const full = path.join(dir, file);
      if (Date.now() - statSync(full).mtimeMs > STALE_DUMP_MS) rmSync(full, { force: true });
    }
  } catch {
    // Nothing to tidy.
  }
}

/** The Java runtime on the PATH: its real location and build, without starting it. */
function javaIdentity(): string {
  const names = process.platform === 'win32' ? ['java.exe', 'java'] : ['java'];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      try {
        const candidate = path.join(dir, name);
        accessSync(candidate, constants.X_OK);
        const real = realpathSync(candidate);
        const home = path.dirname(path.dirname(real));
        const modules = path.join(home, 'lib', 'modules');
        const stamp = existsSync(modules) ? statSync(modules) : statSync(real);
        return `${real}:${stamp.size}:${stamp.mtimeMs}`;
      } catch {
        // not here
      }
    }
  }
  return 'java';
}
