/**
 * What the S3 requests of a Lambda entry need from IAM, found from its code
 * rather than written down: esbuild resolves every module the entry can load
 * (its static and `await import()` graph, as the deployed bundle has it), and
 * each module that talks to S3 is read for the request classes of
 * `@aws-sdk/client-s3` it constructs (`new sdk.ListPartsCommand(...)`,
 * `new PutObjectCommand(...)`, the same inside a dependency such as
 * `@aws-sdk/lib-storage`). {@link s3CommandActions} says what each request
 * needs, from AWS's "Required permissions for Amazon S3 API operations".
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { buildSync } from 'esbuild';
import ts from 'typescript';
import { lambdaBuildOptions } from '../lib/lambda-bundle';
import { lambdaEntry, repoRoot } from '../lib/paths';

/** Where an action applies: the bucket (its ARN) or objects in it (`bucket/key`). */
export type ActionTarget = 'bucket' | 'object';

export interface CommandActions {
  /** The IAM actions the request needs. */
  readonly actions: readonly string[];
  /** More actions when the request names a version (`VersionId`). */
  readonly withVersionId?: readonly string[];
  readonly on: ActionTarget;
}

/**
 * The IAM actions of each S3 request the code sends, from AWS's mapping
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-with-s3-policy-actions.html
 * and each operation's Permissions section in the S3 API Reference). A
 * request that is not here fails the test until it is added. A presigned
 * request (`getSignedUrl`) needs the same actions as one sent: S3 checks the
 * signer's permissions when the link is used.
 */
export const s3CommandActions: Readonly<Record<string, CommandActions>> = {
  AbortMultipartUploadCommand: { actions: ['s3:AbortMultipartUpload'], on: 'object' },
  CompleteMultipartUploadCommand: { actions: ['s3:PutObject'], on: 'object' },
  // Reads the source and writes the target (our copies stay in one bucket).
  CopyObjectCommand: { actions: ['s3:GetObject', 's3:PutObject'], on: 'object' },
  CreateMultipartUploadCommand: { actions: ['s3:PutObject'], on: 'object' },
  DeleteObjectCommand: {
    actions: ['s3:DeleteObject'],
    withVersionId: ['s3:DeleteObjectVersion'],
    on: 'object',
  },
  // Each object listed is authorized as its own delete.
  DeleteObjectsCommand: {
    actions: ['s3:DeleteObject'],
    withVersionId: ['s3:DeleteObjectVersion'],
    on: 'object',
  },
  GetObjectCommand: { actions: ['s3:GetObject'], withVersionId: ['s3:GetObjectVersion'], on: 'object' },
  HeadObjectCommand: { actions: ['s3:GetObject'], withVersionId: ['s3:GetObjectVersion'], on: 'object' },
  ListObjectsV2Command: { actions: ['s3:ListBucket'], on: 'bucket' },
  // "Be aware of the name difference" (S3 API Reference, ListObjectVersions).
  ListObjectVersionsCommand: { actions: ['s3:ListBucketVersions'], on: 'bucket' },
  ListPartsCommand: { actions: ['s3:ListMultipartUploadParts'], on: 'object' },
  PutObjectCommand: { actions: ['s3:PutObject'], on: 'object' },
  PutObjectTaggingCommand: { actions: ['s3:PutObjectTagging'], on: 'object' },
  UploadPartCommand: { actions: ['s3:PutObject'], on: 'object' },
};

/** One S3 request class a module constructs, and whether the construction names a `VersionId`. */
export interface S3Request {
  /** The module: a path from the repository root, or a dependency's package name. */
  readonly module: string;
  readonly command: string;
  readonly versionId: boolean;
}

const fromFunctions = createRequire(join(repoRoot, 'functions/package.json'));

/** Every request class `@aws-sdk/client-s3` exports (`...Command`). */
export const s3CommandNames: ReadonlySet<string> = new Set(
  Object.keys(fromFunctions('@aws-sdk/client-s3') as Record<string, unknown>).filter((name) =>
    name.endsWith('Command'),
  ),
);

/** A module's name in reports and rules: its path in the repository, or the package it belongs to. */
export function moduleName(path: string): string {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return path;
  const [scope = '', name = ''] = path.slice(at + 'node_modules/'.length).split('/');
  return scope.startsWith('@') ? `${scope}/${name}` : scope;
}

/** Whether a module may talk to S3: it imports the SDK's S3 client, or ours (functions/src/adapters/s3). */
function talksToS3(name: string, text: string): boolean {
  // The client's own code builds requests of its own (S3 Express sessions) that we never send.
  if (name === '@aws-sdk/client-s3' || name.startsWith('@smithy/')) return false;
  return (
    name.startsWith('functions/src/adapters/s3/') ||
    text.includes('@aws-sdk/client-s3') ||
    /['"][^'"]*\/s3\/(?:client|sdk)['"]/.test(text)
  );
}

/** Whether a subtree names a property `VersionId` (an object literal key, shorthand or not). */
function namesVersionId(node: ts.Node): boolean {
  if (
    (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
    ts.isIdentifier(node.name) &&
    node.name.text === 'VersionId'
  )
    return true;
  return ts.forEachChild(node, namesVersionId) ?? false;
}

/** The S3 request classes constructed in `source` (TypeScript or JavaScript). */
export function s3RequestsIn(module: string, source: string): S3Request[] {
  const file = ts.createSourceFile(module, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: S3Request[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : undefined;
      if (name && s3CommandNames.has(name)) {
        found.push({ module, command: name, versionId: (node.arguments ?? []).some(namesVersionId) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The modules each Lambda entry can load, as paths from the repository root:
 * one esbuild build of all the entries (the deployed bundles' options, code
 * split the same way), then for each entry the inputs of its output file and
 * of every chunk it imports, statically or with `await import()`.
 */
export function modulesOfEntries(entries: readonly string[]): Map<string, string[]> {
  const [first] = entries;
  if (!first) return new Map();
  // The graph only: nothing minified, mapped or written.
  const { metafile } = buildSync({
    ...lambdaBuildOptions(lambdaEntry(first), join(repoRoot, '.s3-requests-unwritten')),
    entryPoints: Object.fromEntries(entries.map((entry) => [entry, lambdaEntry(entry)])),
    minify: false,
    sourcemap: false,
    absWorkingDir: repoRoot,
    write: false,
    logLevel: 'silent',
  });
  const modules = new Map<string, string[]>();
  for (const entry of entries) {
    const start = Object.entries(metafile.outputs).find(
      ([, output]) => output.entryPoint && join(repoRoot, output.entryPoint) === lambdaEntry(entry),
    )?.[0];
    if (!start) throw new Error(`esbuild made no output for the entry ${entry}`);
    const seen = new Set<string>();
    const visit = (output: string) => {
      if (seen.has(output) || !metafile.outputs[output]) return;
      seen.add(output);
      for (const imported of metafile.outputs[output].imports) if (!imported.external) visit(imported.path);
    };
    visit(start);
    const inputs = new Set(
      [...seen].flatMap((output) => Object.keys(metafile.outputs[output]?.inputs ?? {})),
    );
    modules.set(
      entry,
      [...inputs]
        .filter((path) => /\.(m?[jt]s|cjs)$/.test(path))
        .map((path) => relative(repoRoot, join(repoRoot, path))),
    );
  }
  return modules;
}

/** Every S3 request the code of each `functions/src/lambdas/<entry>.ts` can send, by entry. */
export function s3RequestsOfEntries(entries: readonly string[]): Map<string, S3Request[]> {
  const texts = new Map<string, S3Request[]>();
  const requestsOf = (path: string): S3Request[] => {
    let found = texts.get(path);
    if (!found) {
      const name = moduleName(path);
      const text = readFileSync(join(repoRoot, path), 'utf8');
      found = talksToS3(name, text) ? s3RequestsIn(name, text) : [];
      texts.set(path, found);
    }
    return found;
  };
  return new Map([...modulesOfEntries(entries)].map(([entry, paths]) => [entry, paths.flatMap(requestsOf)]));
}
