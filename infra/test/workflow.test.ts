import { MIN_CALLBACK_WAIT_SECONDS } from '@tunesmith/functions/domain/generations/timing';
import {
  ASL_SUBSTITUTIONS,
  readGenerationAsl,
  substitutionsIn,
} from '@tunesmith/functions/workflow/definition';
import { routeGroups } from '@tunesmith/shared/routes';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAL_WEBHOOK_JWKS_URL } from '../lib/api';
import {
  actionsOf,
  flatten,
  functionsByEntry,
  logicalId,
  propsOf,
  type Resource,
  resourcesOf,
  type Statement,
  statementsOfFunction,
  synthBeforeAll,
} from './helpers';

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;
/** Logical id of the state machine. */
let machine: string;
/** Logical ids of the workflow's task functions, by handler export. */
let workflowFunctions: Map<string, string>;

beforeAll(() => {
  const machines = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::StepFunctions::StateMachine');
  expect(machines).toHaveLength(1);
  machine = (machines[0] as [string, Resource])[0];
  workflowFunctions = new Map(
    (functionsByEntry(resources).get('workflow') ?? []).map((id) => [
      (propsOf(resources[id]).Handler as string).replace(/^index\./, ''),
      id,
    ]),
  );
});

const handlerOf: Record<string, string> = {
  SubmitFunctionArn: 'submitHandler',
  WaitFunctionArn: 'waitHandler',
  PollFunctionArn: 'pollHandler',
  FinishFunctionArn: 'finishHandler',
  PrepareFunctionArn: 'prepareHandler',
  LyricsFunctionArn: 'lyricsHandler',
  FailFunctionArn: 'failHandler',
  StemsFunctionArn: 'stemsHandler',
};

const variablesOf = (functionId: string): Record<string, unknown> =>
  (propsOf(resources[functionId]).Environment as { Variables: Record<string, unknown> }).Variables;

/** The policy statements attached to a role given by logical id. */
const statementsOfRole = (role: string): Statement[] =>
  Object.values(resources)
    .filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' &&
        (propsOf(r).Roles as { Ref: string }[]).some((ref) => ref.Ref === role),
    )
    .flatMap((r) => (propsOf(r).PolicyDocument as { Statement: Statement[] }).Statement);

/** `action on resource` for every grant of `prefix` actions in the statements. */
const grantsOf = (statements: Statement[], prefix: string): string[] =>
  statements
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) =>
      actionsOf(s)
        .filter((action) => action.startsWith(prefix))
        .flatMap((action) => resourcesOf(s).map((resource) => `${action} on ${flatten(resource)}`)),
    )
    .sort();

describe('generation state machine', () => {
  it('is a Standard machine whose definition is the ASL file, unchanged', () => {
    const props = propsOf(resources[machine]);
    expect(props.StateMachineType).toBe('STANDARD');
    expect(props.DefinitionString).toBe(readGenerationAsl());
  });

  it('binds every placeholder of the file to its own task function, leaving no placeholder behind', () => {
    const props = propsOf(resources[machine]);
    const definition = props.DefinitionString as string;
    const substitutions = props.DefinitionSubstitutions as Record<string, { 'Fn::GetAtt': [string, string] }>;
    expect(substitutionsIn(definition)).toEqual([...ASL_SUBSTITUTIONS].sort());
    expect(Object.keys(substitutions).sort()).toEqual([...ASL_SUBSTITUTIONS].sort());

    const bound = new Set<string>();
    for (const name of ASL_SUBSTITUTIONS) {
      const [target, attribute] = substitutions[name]?.['Fn::GetAtt'] ?? [];
      expect(attribute, name).toBe('Arn');
      expect(target, name).toBe(workflowFunctions.get(handlerOf[name] as string));
      bound.add(target as string);
    }
    expect(bound.size).toBe(8);

    // What CloudFormation does with DefinitionSubstitutions: the result must be complete, valid JSON.
    const deployed = definition.replace(/\$\{([^}]*)\}/g, (_, name: string) => `arn-of-${name}`);
    expect(deployed).not.toContain('${');
    const states = (JSON.parse(deployed) as { States: Record<string, Record<string, unknown>> }).States;
    const invoked = Object.values(states)
      .filter((state) => state.Type === 'Task')
      .map((state) =>
        state.Resource === 'arn:aws:states:::lambda:invoke.waitForTaskToken'
          ? (state.Parameters as { FunctionName: string }).FunctionName
          : state.Resource,
      );
    expect(invoked.sort()).toEqual(ASL_SUBSTITUTIONS.map((name) => `arn-of-${name}`).sort());
  });

  it('logs every event without execution data to a log group with a retention, and traces with X-Ray', () => {
    const props = propsOf(resources[machine]);
    const logging = props.LoggingConfiguration as {
      Level: string;
      IncludeExecutionData: boolean;
      Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: unknown } }[];
    };
    expect(logging.Level).toBe('ALL');
    expect(logging.IncludeExecutionData).toBe(false);
    const logGroup = /^\{(.+)\.Arn\}$/.exec(
      flatten(logging.Destinations[0]?.CloudWatchLogsLogGroup.LogGroupArn),
    )?.[1] as string;
    expect(resources[logGroup]?.Type).toBe('AWS::Logs::LogGroup');
    expect(propsOf(resources[logGroup]).RetentionInDays).toBeGreaterThan(0);
    expect(props.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('may invoke exactly the eight task functions and no other function', () => {
    const role = /^\{(.+)\.Arn\}$/.exec(flatten(propsOf(resources[machine]).RoleArn))?.[1] as string;
    const statements = statementsOfRole(role);
    const expected = Object.values(handlerOf).map(
      (handler) => `lambda:InvokeFunction on {${workflowFunctions.get(handler)}.Arn}`,
    );
    expect(expected).toHaveLength(8);
    expect(grantsOf(statements, 'lambda:')).toEqual(expected.sort());
    // Nothing but log delivery and tracing besides.
    const others = statements
      .flatMap(actionsOf)
      .filter((action) => !action.startsWith('lambda:') && !/^(logs|xray):/.test(action));
    expect(others).toEqual([]);
  });
});

describe('workflow task functions', () => {
  it('are eight functions from lambdas/workflow.ts, one per handler export, plus the execution-ended handler', () => {
    expect([...workflowFunctions.keys()].sort()).toEqual(
      [...Object.values(handlerOf), 'executionEndedHandler'].sort(),
    );
  });

  it('a rule on failed, timed-out and aborted executions of this machine marks their tracks failed', () => {
    const rules = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::Events::Rule' &&
        JSON.stringify(propsOf(r).EventPattern ?? {}).includes('aws.states'),
    );
    expect(rules).toHaveLength(1);
    const rule = propsOf(rules[0]);
    const pattern = rule.EventPattern as {
      'detail-type': string[];
      detail: { status: string[]; stateMachineArn: unknown[] };
    };
    expect(pattern['detail-type']).toEqual(['Step Functions Execution Status Change']);
    expect(pattern.detail.status.sort()).toEqual(['ABORTED', 'FAILED', 'TIMED_OUT']);
    expect(JSON.stringify(pattern.detail.stateMachineArn)).toContain(machine);
    const targets = rule.Targets as {
      Arn: unknown;
      RetryPolicy?: { MaximumRetryAttempts?: number };
      DeadLetterConfig?: { Arn: unknown };
    }[];
    const handler = workflowFunctions.get('executionEndedHandler') as string;
    expect(flatten(targets[0]?.Arn)).toContain(handler);
    expect(targets[0]?.RetryPolicy?.MaximumRetryAttempts).toBeGreaterThan(0);
    // What fails all its retries is kept, from the rule and from the function alike.
    const queue = `{${logicalId(synthesized.stack, synthesized.stack.failedEvents.queue.node.defaultChild)}.Arn}`;
    expect(flatten(targets[0]?.DeadLetterConfig?.Arn)).toBe(queue);
    expect(flatten((propsOf(resources[handler]).DeadLetterConfig as { TargetArn: unknown }).TargetArn)).toBe(
      queue,
    );
  });

  it('end before their state gives up, and Finish, PrepareDownload and FinishStems have room for a 240 s track', () => {
    const states = (
      JSON.parse(readGenerationAsl()) as {
        States: Record<
          string,
          { Resource?: string; Parameters?: { FunctionName?: string }; TimeoutSeconds?: number }
        >;
      }
    ).States;
    let checked = 0;
    for (const state of Object.values(states)) {
      const placeholder = /\$\{(.+)\}/.exec(state.Parameters?.FunctionName ?? state.Resource ?? '')?.[1];
      if (!placeholder) continue;
      const id = workflowFunctions.get(handlerOf[placeholder] as string) as string;
      // A Lambda timeout is an error the state's Retry and Catch see; the state's own timeout is the backstop.
      // WaitForCallback's timeout comes from the job (at least MIN_CALLBACK_WAIT_SECONDS).
      expect(propsOf(resources[id]).Timeout, placeholder).toBeLessThan(
        state.TimeoutSeconds ?? MIN_CALLBACK_WAIT_SECONDS,
      );
      checked++;
    }
    expect(checked).toBe(8);
    const finish = propsOf(resources[workflowFunctions.get('finishHandler') as string]);
    expect(finish.MemorySize).toBeGreaterThanOrEqual(1024);
    expect(finish.Timeout).toBeGreaterThanOrEqual(240);
    // Reading, marking, signing and hashing a 240 s master (~45 MB) in memory.
    const prepare = propsOf(resources[workflowFunctions.get('prepareHandler') as string]);
    expect(prepare.MemorySize).toBeGreaterThanOrEqual(1024);
    expect(prepare.Timeout).toBeGreaterThanOrEqual(60);
    // Up to six 240 s stems held, marked, signed, measured, encoded and zipped (decision 044).
    const stems = propsOf(resources[workflowFunctions.get('stemsHandler') as string]);
    expect(stems.MemorySize).toBeGreaterThanOrEqual(3008);
    expect(stems.Timeout).toBeGreaterThanOrEqual(300);
  });

  it('get the table, both buckets and the site behind CloudFront for the webhook, and no provider key or local endpoints', () => {
    const { stack } = synthesized;
    const distribution = logicalId(stack, stack.web.distribution.node.defaultChild);
    const api = logicalId(stack, stack.api.httpApi.node.defaultChild);
    for (const [handler, id] of workflowFunctions) {
      const variables = variablesOf(id);
      expect(flatten(variables.TABLE_NAME), handler).toBe(
        `{Ref:${logicalId(stack, stack.data.table.node.defaultChild)}}`,
      );
      expect(flatten(variables.TRACKS_BUCKET)).toBe(
        `{Ref:${logicalId(stack, stack.data.tracks.node.defaultChild)}}`,
      );
      expect(flatten(variables.UPLOADS_BUCKET)).toBe(
        `{Ref:${logicalId(stack, stack.data.uploads.node.defaultChild)}}`,
      );
      // The provider posts to {WEBHOOK_BASE_URL}/api/webhooks/fal: the public https://{distribution}
      // origin, whose /api/* behaviour reaches the API (as Stripe's webhook does), never execute-api.
      expect(flatten(variables.WEBHOOK_BASE_URL)).toBe(`https://{${distribution}.DomainName}`);
      expect(JSON.stringify(variables.WEBHOOK_BASE_URL)).not.toContain(api);
      for (const unset of [
        'FAL_KEY',
        'FAL_BASE_URL',
        'STEPFUNCTIONS_ENDPOINT',
        'S3_ENDPOINT',
        'S3_FORCE_PATH_STYLE',
        'DYNAMODB_ENDPOINT',
      ]) {
        expect(variables[unset], `${handler} ${unset}`).toBeUndefined();
      }
    }
  });

  it('write the table (Poll only reads it), and touch only the objects their step needs', () => {
    const { stack } = synthesized;
    const site = logicalId(stack, stack.web.bucket.node.defaultChild);
    const uploads = logicalId(stack, stack.data.uploads.node.defaultChild);
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    const expectedS3: Record<string, string[]> = {
      // A track deleted while its files were made: they go again, every version (decision 034). The master
      // Finish stores is read back, and removed, by PrepareDownload, which stores the WAV download.
      prepareHandler: [
        `s3:DeleteObject on {${tracks}.Arn}/tracks/*`,
        `s3:DeleteObjectVersion on {${tracks}.Arn}/tracks/*`,
        `s3:GetObject on {${tracks}.Arn}/tracks/*`,
        `s3:ListBucketVersions on {${tracks}.Arn}`,
        `s3:PutObject on {${tracks}.Arn}/tracks/*`,
      ],
      finishHandler: [
        `s3:DeleteObject on {${tracks}.Arn}/tracks/*`,
        `s3:DeleteObjectVersion on {${tracks}.Arn}/tracks/*`,
        `s3:ListBucketVersions on {${tracks}.Arn}`,
        `s3:PutObject on {${tracks}.Arn}/tracks/*`,
        // Share pages (decision 024): the site bucket's share area, and the shell they are made from.
        `s3:DeleteObject on {${site}.Arn}/share/track/*`,
        `s3:GetObject on {${site}.Arn}/index.html`,
        `s3:GetObject on {${site}.Arn}/pages/track.html`,
        `s3:PutObject on {${site}.Arn}/share/track/*`,
      ],
      // The track's WAV, presigned for the provider's transcription (timed lyrics).
      lyricsHandler: [`s3:GetObject on {${tracks}.Arn}/tracks/*`],
      // A separation's stems and zip, stored beside the track's files; removed again, every version, when
      // the track was deleted or the separation failed meanwhile (decision 044).
      stemsHandler: [
        `s3:DeleteObject on {${tracks}.Arn}/tracks/*`,
        `s3:DeleteObjectVersion on {${tracks}.Arn}/tracks/*`,
        `s3:ListBucketVersions on {${tracks}.Arn}`,
        `s3:PutObject on {${tracks}.Arn}/tracks/*`,
      ],
      // The upload of a remix, the parent's WAV of an extend or a repaint: both presigned for the provider.
      submitHandler: [
        `s3:GetObject on {${tracks}.Arn}/tracks/*`,
        `s3:GetObject on {${uploads}.Arn}/uploads/*`,
      ],
    };
    for (const [handler, id] of workflowFunctions) {
      const statements = statementsOfFunction(resources, id);
      const actions = statements.flatMap(actionsOf);
      expect(actions, handler).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      const writes = actions.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action));
      if (handler === 'pollHandler') expect(writes, handler).toEqual([]);
      else
        expect(writes, handler).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:PutItem']));
      expect(grantsOf(statements, 's3:'), handler).toEqual([...(expectedS3[handler] ?? [])].sort());
      expect(statements.flatMap(actionsOf).filter((action) => action.endsWith(':*'))).toEqual([]);
    }
  });

  it("let only PrepareDownload and FinishStems read and write the content credentials' secret, and tell only them where it is", () => {
    const { stack } = synthesized;
    const secret = logicalId(stack, stack.workflow.contentCredentials.node.defaultChild);
    for (const [handler, id] of workflowFunctions) {
      const grants = grantsOf(statementsOfFunction(resources, id), 'secretsmanager:');
      const variable = variablesOf(id).C2PA_SIGNING_SECRET_ARN;
      if (handler === 'prepareHandler' || handler === 'stemsHandler') {
        expect(grants).toEqual([
          `secretsmanager:GetSecretValue on {Ref:${secret}}`,
          `secretsmanager:PutSecretValue on {Ref:${secret}}`,
        ]);
        expect(flatten(variable)).toBe(`{Ref:${secret}}`);
      } else {
        expect(grants, handler).toEqual([]);
        expect(variable, handler).toBeUndefined();
      }
    }
    for (const group of routeGroups)
      expect(JSON.stringify(statementsOfFunction(resources, functionOf(group))), group).not.toContain(secret);
  });

  it('let only the wait step answer a task, on this state machine only', () => {
    for (const [handler, id] of workflowFunctions) {
      expect(grantsOf(statementsOfFunction(resources, id), 'states:'), handler).toEqual(
        handler === 'waitHandler'
          ? [`states:SendTaskFailure on {Ref:${machine}}`, `states:SendTaskSuccess on {Ref:${machine}}`]
          : [],
      );
    }
  });
});

describe('route groups and the workflow', () => {
  it('lets only generation, the developer API and the community (a remix, decision 060) start executions, of this state machine only, and tells them the ARN', () => {
    for (const group of routeGroups) {
      const starts = grantsOf(statementsOfFunction(resources, functionOf(group)), 'states:StartExecution');
      const variables = variablesOf(functionOf(group));
      if (group === 'generation' || group === 'api-v1' || group === 'community') {
        expect(starts).toEqual([`states:StartExecution on {Ref:${machine}}`]);
        expect(flatten(variables.STATE_MACHINE_ARN)).toBe(`{Ref:${machine}}`);
      } else {
        expect(starts, group).toEqual([]);
        expect(variables.STATE_MACHINE_ARN, group).toBeUndefined();
      }
    }
  });

  it('lets only webhooks answer a waiting task, with SendTaskSuccess and SendTaskFailure only', () => {
    for (const group of routeGroups) {
      const grants = grantsOf(statementsOfFunction(resources, functionOf(group)), 'states:');
      if (group === 'webhooks') {
        expect(grants).toEqual([
          `states:SendTaskFailure on {Ref:${machine}}`,
          `states:SendTaskSuccess on {Ref:${machine}}`,
        ]);
      } else if (group === 'generation' || group === 'api-v1' || group === 'community') {
        expect(grants, group).toEqual([`states:StartExecution on {Ref:${machine}}`]);
      } else {
        expect(grants, group).toEqual([]);
      }
    }
  });

  it("points the webhooks group at fal's JWKS", () => {
    expect(FAL_WEBHOOK_JWKS_URL).toBe('https://rest.fal.ai/.well-known/jwks.json');
    expect(variablesOf(functionOf('webhooks')).FAL_WEBHOOK_JWKS_URL).toBe(FAL_WEBHOOK_JWKS_URL);
  });

  it('lets the catalogue recognise an optional session and sign plays of track audio, nothing more', () => {
    const { stack } = synthesized;
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    const catalog = functionOf('catalog');
    const variables = variablesOf(catalog);
    for (const name of [
      'USER_POOL_ID',
      'USER_POOL_CLIENT_ID',
      'PUBLIC_ORIGIN',
      'TABLE_NAME',
      'TRACKS_BUCKET',
      'AUDIO_SIGNING_KEY_PAIR_ID',
      'AUDIO_SIGNING_SECRET_ARN',
    ]) {
      expect(flatten(variables[name] ?? ''), name).not.toBe('');
    }
    expect(flatten(variables.TRACKS_BUCKET)).toBe(`{Ref:${tracks}}`);
    // CloudFront reads the audio for signed links (decision 008): the catalogue touches no bucket.
    expect(grantsOf(statementsOfFunction(resources, catalog), 's3:')).toEqual([]);
  });

  it('lets generation read and delete uploads and delete tracks (every version), without reading or writing track audio (CloudFront and the workflow do)', () => {
    const { stack } = synthesized;
    const site = logicalId(stack, stack.web.bucket.node.defaultChild);
    const uploads = logicalId(stack, stack.data.uploads.node.defaultChild);
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    expect(grantsOf(statementsOfFunction(resources, functionOf('generation')), 's3:')).toEqual(
      [
        `s3:DeleteObject on {${tracks}.Arn}/tracks/*`,
        `s3:DeleteObjectVersion on {${tracks}.Arn}/tracks/*`,
        `s3:ListBucketVersions on {${tracks}.Arn}`,
        `s3:DeleteObject on {${uploads}.Arn}/incoming/*`,
        `s3:DeleteObject on {${uploads}.Arn}/uploads/*`,
        `s3:GetObject on {${uploads}.Arn}/incoming/*`,
        `s3:GetObject on {${uploads}.Arn}/uploads/*`,
        `s3:ListBucket on {${uploads}.Arn}`,
        // Share pages (decision 024): the site bucket's share area, and the shell they are made from.
        `s3:DeleteObject on {${site}.Arn}/share/track/*`,
        `s3:GetObject on {${site}.Arn}/index.html`,
        `s3:GetObject on {${site}.Arn}/pages/track.html`,
        `s3:PutObject on {${site}.Arn}/share/track/*`,
      ].sort(),
    );
  });
});
