import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../lib/app';
import { repoRoot } from '../lib/paths';
import { SYNTH_TIMEOUT_MS, TEST_SENDER, tempDir } from './helpers';

// The operator's documents run as written: every `cdk deploy`, `cdk synth` and `npm run deploy` command
// in the README and docs/deploy.md synthesises without an error, and the list of what
// a destroyed stage keeps is the template's own.

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

/** Every `npx cdk deploy|synth` and `npm run deploy` command in a document's sh blocks, continuation lines joined. */
function cdkCommands(doc: string): string[] {
  const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => /^(npx cdk (deploy|synth)|npm run deploy --)\s/.test(line));
}

/** A command's `-c name=value` pairs, with the document's `<placeholders>` filled in. */
function contextOf(command: string): Record<string, string> {
  const fill: Record<string, string> = { account: '123456789012', region: 'eu-west-1', id: '0a1b2c3d' };
  const context: Record<string, string> = {};
  for (const match of command.matchAll(/-c\s+([\w:]+)=("([^"]*)"|\S+)/g)) {
    const value = match[3] ?? (match[2] as string);
    context[match[1] as string] = value.replace(/<(\w+)>/g, (_, name: string) => fill[name] ?? name);
  }
  return context;
}

function synthesise(context: Record<string, string>) {
  const { app } = buildApp({
    bundle: false,
    outdir: tempDir('tunesmith-docs-'),
    webAssetsPath: join(tempDir('tunesmith-docs-web-'), 'none'),
    context,
  });
  return app.node.children.filter((child): child is Stack => Stack.isStack(child));
}

describe('the deploy commands of the README and docs/deploy.md', () => {
  const commands = [...cdkCommands(read('README.md')), ...cdkCommands(read('docs/deploy.md'))];

  it('are found', () => {
    expect(commands.some((command) => command.includes('stage=prod'))).toBe(true);
    expect(commands.some((command) => !command.includes('stage=prod'))).toBe(true);
  });

  it.each(commands)(
    'synthesise without an error: %s',
    (command) => {
      const stacks = synthesise(contextOf(command));
      const errors = stacks.flatMap((stack) =>
        Annotations.fromStack(stack)
          .findError('*', Match.anyValue())
          .map((error) => String(error.entry.data)),
      );
      // cdk-nag reports as errors too; only the stack's own refusals are this test's business.
      expect(errors.filter((error) => !/^(AwsSolutions|Serverless)-/.test(error))).toEqual([]);
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe("docs/deploy.md's list of what a destroyed stage keeps", () => {
  /** The kept table's rows: the construct paths each names, and which stages have them. */
  function keptRows(): { paths: string[]; on: string }[] {
    const doc = read('docs/deploy.md');
    const section = doc.slice(doc.indexOf('## Taking a stage down'));
    const table = section.slice(
      section.indexOf('| kept |'),
      section.indexOf('\n\n', section.indexOf('| kept |')),
    );
    return table
      .split('\n')
      .slice(2)
      .map((line) => {
        const cells = line.split('|').map((cell) => cell.trim());
        return {
          paths: [...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string),
          on: cells[3] ?? '',
        };
      });
  }

  const variants: { name: string; context: Record<string, string>; webAcl: boolean; mailSink: boolean }[] = [
    { name: 'dev', context: { stage: 'dev' }, webAcl: false, mailSink: false },
    {
      name: 'dev with a web ACL and a mail sink',
      context: { stage: 'dev', waf: 'on', mailSinkDomain: 'test-mail.example.org' },
      webAcl: true,
      mailSink: true,
    },
    {
      name: 'prod',
      context: {
        stage: 'prod',
        apiOriginDomain: 'api-origin.example.org',
        apiOriginCertificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d',
      },
      webAcl: true,
      mailSink: false,
    },
  ];

  it.each(variants)(
    'names exactly what the $name template retains',
    ({ context, webAcl, mailSink }) => {
      const retained = synthesise({
        ...context,
        mailFrom: TEST_SENDER,
        'aws:cdk:enable-path-metadata': 'true',
      })
        .flatMap((stack) =>
          Object.values(
            Template.fromStack(stack).toJSON().Resources as Record<
              string,
              { DeletionPolicy?: string; Metadata?: Record<string, unknown> }
            >,
          )
            .filter((resource) => resource.DeletionPolicy === 'Retain')
            .map((resource) =>
              String(resource.Metadata?.['aws:cdk:path'])
                .replace(`${stack.stackName}/`, '')
                .replace(/\/Resource$/, ''),
            ),
        )
        .sort();
      const documented = keptRows()
        .filter(
          ({ on }) =>
            on === 'every stage' ||
            (webAcl && on.includes('web ACL')) ||
            (mailSink && on.includes('mailSinkDomain')),
        )
        .flatMap((row) => row.paths)
        .sort();
      expect(retained.length).toBeGreaterThan(5);
      expect(documented).toEqual(retained);
    },
    SYNTH_TIMEOUT_MS,
  );
});
