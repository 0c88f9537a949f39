/**
 * The generation workflow's ASL file: one source for CDK (definitionSubstitutions)
 * and the local runner. `${Name}` placeholders stand for the task Lambdas' ARNs.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const GENERATION_ASL_PATH = fileURLToPath(new URL('./generation.asl.json', import.meta.url));

/** Every `${...}` name the file may use; CDK must bind each one. */
export const ASL_SUBSTITUTIONS = [
  'SubmitFunctionArn',
  'WaitFunctionArn',
  'PollFunctionArn',
  'FinishFunctionArn',
  'PrepareFunctionArn',
  'LyricsFunctionArn',
  'FailFunctionArn',
  'StemsFunctionArn',
] as const;
export type AslSubstitution = (typeof ASL_SUBSTITUTIONS)[number];

/** The file's text. */
export const readGenerationAsl = (path = GENERATION_ASL_PATH): string => readFileSync(path, 'utf8');

/** The `${...}` names used in an ASL text. */
export const substitutionsIn = (text: string): string[] =>
  [...new Set([...text.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1] ?? ''))].sort();

/** The definition with each `${Name}` replaced by `arns[Name]`; throws on an unknown or unbound name. */
export function substituteAsl(text: string, arns: Record<AslSubstitution, string>): Record<string, unknown> {
  return JSON.parse(
    text.replace(/\$\{([^}]*)\}/g, (_, name: string) => {
      const arn = (arns as Record<string, string | undefined>)[name];
      if (!arn) throw new Error(`No value for \${${name}} in the workflow definition`);
      return arn;
    }),
  );
}

/** Placeholder Lambda ARNs for running or validating the file outside AWS. */
export const placeholderArns = (): Record<AslSubstitution, string> =>
  Object.fromEntries(
    ASL_SUBSTITUTIONS.map((n) => [n, `arn:aws:lambda:us-east-1:000000000000:function:local-${n}`]),
  ) as Record<AslSubstitution, string>;
