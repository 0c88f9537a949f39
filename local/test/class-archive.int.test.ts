import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Emulator, startDynamoDbLocal } from '../src/emulators';
import { onPort } from '../src/processes';
import { descendants } from './processes';

// DynamoDB Local's class-data archive (class-archive.ts): made over two starts,
// mapped on the next, and never in the way: a broken one is dropped and the JVM
// starts without it.

const dir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-class-archive-'));
const cacheDir = path.join(dir, 'cache');
const logDir = path.join(dir, 'logs');
mkdirSync(logDir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () => onPort(undefined, (port) => startDynamoDbLocal({ port, logDir, cacheDir }));

/** The command line of the JVM: the emulator's own process (the launcher watches its stdin), or one below it. */
function jvmCommand(emulator: Emulator): string {
  const pid = emulator.process?.pid ?? -1;
  const pids = [pid, ...descendants(pid)];
  const lines = execFileSync('ps', ['-o', 'args=', '-p', pids.join(',')], { encoding: 'utf8' }).split('\n');
  const java = lines.find((line) => line.startsWith('java '));
  if (!java) throw new Error(`No JVM below ${emulator.name}: ${lines.join(' | ')}`);
  return java;
}

/** Creates a table and lists it: the JVM serves requests. */
async function serves(emulator: Emulator, table: string): Promise<void> {
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: emulator.endpoint,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: table,
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    expect((await client.send(new ListTablesCommand({}))).TableNames).toContain(table);
  } finally {
    client.destroy();
  }
}

/** The files of the one archive directory under the cache. */
function cached(): { dir: string; files: string[] } {
  const dirs = existsSync(cacheDir) ? readdirSync(cacheDir).filter((name) => name.startsWith('cds-')) : [];
  expect(dirs).toHaveLength(1);
  const found = path.join(cacheDir, dirs[0] as string);
  return { dir: found, files: readdirSync(found).sort() };
}

describe('DynamoDB Local with a class-data archive', () => {
  it('is made over two starts, mapped on the next, and dropped when broken', {
    timeout: 240_000,
  }, async () => {
    // First: the jar as it is; the copy that class-data sharing accepts is made in the background.
    let db = await start();
    expect(jvmCommand(db)).not.toMatch(/SharedArchiveFile|ArchiveClassesAtExit/);
    await serves(db, 'first');
    await vi.waitFor(() => expect(cached().files).toEqual(['DynamoDBLocal.jar']), {
      timeout: 60_000,
      interval: 200,
    });
    await db.stop();

    // Second: the JVM writes the archive as it exits.
    db = await start();
    expect(jvmCommand(db)).toContain('-XX:ArchiveClassesAtExit=');
    await serves(db, 'second');
    await db.stop();
    expect(cached().files).toEqual(['DynamoDBLocal.jar', 'classes.jsa']);
    const archive = path.join(cached().dir, 'classes.jsa');
    const written = statSync(archive).size;

    // Then: mapped.
    db = await start();
    expect(jvmCommand(db)).toContain(`-XX:SharedArchiveFile=${archive}`);
    await serves(db, 'third');
    await db.stop();

    // A broken archive (cut short, as a killed dump would leave it) crashes a JVM that maps
    // it: the start goes on without it, and that JVM writes a sound one as it exits.
    const half = readFileSync(archive).subarray(0, Math.floor(written / 2));
    rmSync(archive);
    writeFileSync(archive, half);
    db = await start();
    expect(jvmCommand(db)).toContain('-XX:ArchiveClassesAtExit=');
    await serves(db, 'fourth');
    await db.stop();
    expect(cached().files).toEqual(['DynamoDBLocal.jar', 'classes.jsa']);
    expect(statSync(archive).size).toBeGreaterThan(half.length);
  });
});
