import { useState } from 'react';
import { Tabs } from '@/components/ui/tabs';
import createTrackSh from '../../../../../docs/examples/create-track.sh?raw';
import createTrackTs from '../../../../../docs/examples/create-track.ts?raw';
import pollTrackSh from '../../../../../docs/examples/poll-track.sh?raw';
import restyleUploadSh from '../../../../../docs/examples/restyle-upload.sh?raw';
import restyleUploadTs from '../../../../../docs/examples/restyle-upload.ts?raw';
import verifyWebhookTs from '../../../../../docs/examples/verify-webhook.ts?raw';
import { CodeBlock } from './code-block';

/** The examples, the very files the test suite runs against the local cloud (docs/examples). */
export const examples = [
  {
    id: 'create',
    title: 'Create a track and wait for it',
    curl: [
      { file: 'create-track.sh', code: createTrackSh },
      { file: 'poll-track.sh', code: pollTrackSh },
    ],
    typescript: { file: 'create-track.ts', code: createTrackTs },
  },
  {
    id: 'restyle',
    title: 'Upload audio, then restyle it',
    curl: [{ file: 'restyle-upload.sh', code: restyleUploadSh }],
    typescript: { file: 'restyle-upload.ts', code: restyleUploadTs },
  },
] as const;

export const verifyWebhookExample = { file: 'verify-webhook.ts', code: verifyWebhookTs };

type Language = 'curl' | 'typescript';

/** One example in curl and in TypeScript, a tab each. */
function Example({ example }: { example: (typeof examples)[number] }) {
  const [language, setLanguage] = useState<Language>('curl');
  return (
    <section aria-labelledby={`example-${example.id}`} className="mt-8">
      <h3 id={`example-${example.id}`} className="text-lg font-semibold text-white">
        {example.title}
      </h3>
      <Tabs
        label={`${example.title}: language`}
        value={language}
        onChange={setLanguage}
        className="mt-3"
        items={[
          {
            value: 'curl',
            label: 'curl',
            content: example.curl.map(({ file, code }) => <CodeBlock key={file} label={file} code={code} />),
          },
          {
            value: 'typescript',
            label: 'TypeScript',
            content: <CodeBlock label={example.typescript.file} code={example.typescript.code} />,
          },
        ]}
      />
    </section>
  );
}

/** How to run the examples, then each of them. */
export function Examples({ origin }: { origin: string }) {
  return (
    <>
      <p className="text-zinc-300">
        Each example reads the site and your key from the environment. curl examples use{' '}
        <code className="font-mono">jq</code> to read answers; TypeScript ones run on Node 20 or later with{' '}
        <code className="font-mono">npx tsx</code>.
      </p>
      <CodeBlock
        label="Environment"
        code={`export TUNESMITH_URL=${origin}\nexport TUNESMITH_API_KEY=ts_live_…  # from Profile → Developers`}
      />
      {examples.map((example) => (
        <Example key={example.id} example={example} />
      ))}
    </>
  );
}
