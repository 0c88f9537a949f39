import { routes } from '@tunesmith/shared/routes';
import { Aws, CfnOutput, Duration, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { throttleClassOf } from './api';

/** A web ACL for a CloudFront distribution lives in us-east-1, whatever region the stage is in. */
export const WEB_ACL_REGION = 'us-east-1';

/**
 * Requests one client address may make to `/api/*` (webhooks aside) in five
 * minutes before the WAF blocks it for a while: 5 a second on average. A
 * person polling a generation every 3 s makes 100; a whole office behind one
 * address stays well below it, a script hammering sign-in or generation does not.
 */
export const API_REQUESTS_PER_ADDRESS = 1500;
export const RATE_WINDOW_SECONDS = 300;

/**
 * Requests one client address may make to the sign-in class of routes
 * (sign-in, registration, password resets, the session's own calls; every
 * route `throttleClassOf` puts in that class) in five minutes: one every three
 * seconds on average. API Gateway gives each of those routes one bucket of
 * 10 a second shared by everyone, so under the /api/* limit two addresses
 * could keep it full; under this one it takes thirty. Above what a person
 * needs (the app's own limits refuse an address at 50 password checks in 15
 * minutes and 20 registrations an hour) and what a household or an office
 * behind one address makes signing in.
 */
export const SIGN_IN_REQUESTS_PER_ADDRESS = 100;

/**
 * The paths of the sign-in class from the route manifest, with a path
 * parameter's route matched up to the parameter (`/api/auth/verify-email/`).
 */
export const signInPaths: readonly { readonly match: 'EXACTLY' | 'STARTS_WITH'; readonly path: string }[] = [
  ...new Map(
    routes
      .filter((route) => throttleClassOf(route) === 'sign-in')
      .map((route) => {
        const at = route.path.indexOf('{');
        const match = at < 0 ? ('EXACTLY' as const) : ('STARTS_WITH' as const);
        const path = at < 0 ? route.path : route.path.slice(0, at);
        return [`${match} ${path}`, { match, path }] as const;
      }),
  ).values(),
];

/** The paths of the signed webhooks (Stripe, fal; every `webhook` route of the manifest): checked by their signatures, not by pattern rules. */
export const webhookPaths: readonly string[] = routes
  .filter((route) => route.auth === 'webhook')
  .map((route) => route.path);

/**
 * Rules of the AWS managed common rule set that would block the app's own
 * legitimate requests, answered with Count instead (still visible in the
 * metrics and sampled requests):
 *
 * - SizeRestrictions_BODY blocks any body over 8 KB. Lyrics (a long song in a
 *   script of 3 bytes a character passes 8 KB), plan and setting edits may be
 *   larger; every handler validates its body with its own limits (zod), API
 *   Gateway caps a request at 10 MB, and audio never comes through the API
 *   (it goes to S3 with a presigned PUT).
 *
 * The other size rules hold for the app's own requests: a signed audio link's
 * query (a canned policy: Expires, Signature, Key-Pair-Id, download) is about
 * 450 bytes of the 2 KB SizeRestrictions_QUERYSTRING allows, and the session
 * cookies (a Cognito access and refresh token each for a user and an
 * administrator on one browser) under 6 KB of SizeRestrictions_Cookie_HEADER's 10 KB.
 */
export const COMMON_RULES_COUNTED = ['SizeRestrictions_BODY'] as const;

/** The rules of the web ACL, by name (docs/cost.md counts one fee per rule). */
export const WEB_ACL_RULES = [
  'RateLimitApiPerAddress',
  'RateLimitSignInPerAddress',
  'AWSManagedRulesCommonRuleSet',
  'AWSManagedRulesKnownBadInputsRuleSet',
] as const;

export interface EdgeProtectionStackProps extends StackProps {
  /** The stage's stack this one protects; names the ACL and its metrics. */
  readonly protects: string;
}

/**
 * The stage's web ACL (decision 013): a companion stack in us-east-1, because
 * CloudFront takes only web ACLs of that region. It publishes the ACL's ARN as
 * an SSM parameter there, which the stage's stack reads ({@link WebAclArn}), so
 * the stage's stack stays free of any region and deploys from any region
 * (`cdk deploy` deploys this stack first; us-east-1 must be bootstrapped too).
 *
 * Four rules, in order: a rate-based rule per client address on `/api/*`, a
 * lower one on the sign-in class of routes (decision 035), then AWS's managed
 * common rule set and known-bad-inputs rule set. The
 * managed groups skip the signed webhooks (Stripe's payloads carry customer
 * text that pattern rules may mistake for an attack, and a blocked event is
 * lost after Stripe's retries), and the rate rule skips them too (Stripe and
 * fal post from a few addresses; the webhook route throttle caps them).
 */
export class EdgeProtectionStack extends Stack {
  readonly webAcl: CfnWebACL;
  /** The SSM parameter (in us-east-1) holding the web ACL's ARN. */
  readonly arnParameterName: string;

  constructor(scope: Construct, id: string, props: EdgeProtectionStackProps) {
    super(scope, id, props);
    Tags.of(this).add('tunesmith:protects', props.protects);

    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `${props.protects}-${metricName}`,
    });
    const [first, ...more] = webhookPaths.map((path) => pathIs('EXACTLY', path));
    if (!first) throw new Error('The route manifest names no webhook route');
    const notWebhook: CfnWebACL.StatementProperty = {
      notStatement: { statement: more.length ? { orStatement: { statements: [first, ...more] } } : first },
    };
    const [signIn, ...moreSignIn] = signInPaths.map(({ match, path }) => pathIs(match, path));
    if (!signIn) throw new Error('The route manifest names no sign-in route');
    const managed = (
      name: (typeof WEB_ACL_RULES)[2 | 3],
      priority: number,
      counted: readonly string[] = [],
    ): CfnWebACL.RuleProperty => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          scopeDownStatement: notWebhook,
          ...(counted.length
            ? { ruleActionOverrides: counted.map((rule) => ({ name: rule, actionToUse: { count: {} } })) }
            : {}),
        },
      },
      visibilityConfig: visibility(name),
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${props.protects}-edge`,
      // WAF allows letters, digits, spaces and = : # @ / - , . in a description.
      description: `The web ACL of ${props.protects}: rate limits per address on /api/ and on sign-in, AWS common and known-bad-inputs rules`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('edge'),
      rules: [
        {
          name: WEB_ACL_RULES[0],
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: API_REQUESTS_PER_ADDRESS,
              evaluationWindowSec: RATE_WINDOW_SECONDS,
              scopeDownStatement: {
                andStatement: { statements: [pathIs('STARTS_WITH', '/api/'), notWebhook] },
              },
            },
          },
          visibilityConfig: visibility(WEB_ACL_RULES[0]),
        },
        {
          name: WEB_ACL_RULES[1],
          priority: 1,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: SIGN_IN_REQUESTS_PER_ADDRESS,
              evaluationWindowSec: RATE_WINDOW_SECONDS,
              scopeDownStatement: moreSignIn.length
                ? { orStatement: { statements: [signIn, ...moreSignIn] } }
                : signIn,
            },
          },
          visibilityConfig: visibility(WEB_ACL_RULES[1]),
        },
        managed(WEB_ACL_RULES[2], 2, COMMON_RULES_COUNTED),
        managed(WEB_ACL_RULES[3], 3),
      ],
    });

    this.arnParameterName = webAclParameterName(props.protects);
    new StringParameter(this, 'WebAclArnParameter', {
      parameterName: this.arnParameterName,
      description: `The ARN of the web ACL on ${props.protects}'s distribution, read by that stack`,
      stringValue: this.webAcl.attrArn,
    });
    new CfnOutput(this, 'WebAclArn', {
      value: this.webAcl.attrArn,
      description: `The web ACL on ${props.protects}'s CloudFront distribution`,
    });
  }
}

/**
 * The request's path, with `//`, `/./` and `/../` resolved first, so a path
 * such as `/api/webhooks/stripe/../../auth/login` is not taken for a webhook.
 */
const pathIs = (match: 'EXACTLY' | 'STARTS_WITH', path: string): CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: match,
    searchString: path,
    textTransformations: [{ priority: 0, type: 'NORMALIZE_PATH' }],
  },
});

/** The construct id aws-cdk-lib gives the AwsCustomResource handler it keeps once per stack. */
const AWS_CUSTOM_RESOURCE_HANDLER = 'AWS679f53fac002430cb0da5b7982bd2287';

/** Where the edge stack publishes the ARN of `stackName`'s web ACL. */
export const webAclParameterName = (stackName: string): string => `/tunesmith/${stackName}/web-acl-arn`;

/**
 * The ARN of the stage's web ACL, read at deploy time from the edge stack's
 * parameter in us-east-1 (one SSM GetParameter of that parameter only). The
 * ARN stays the same while the ACL exists, its rules are updated in place, and
 * WAF refuses to delete an ACL a distribution uses, so one read at creation
 * holds.
 */
export class WebAclArn extends Construct {
  readonly value: string;

  constructor(scope: Construct, id: string, edge: EdgeProtectionStack) {
    super(scope, id);
    const name = edge.arnParameterName;
    const read = {
      service: 'SSM',
      action: 'getParameter',
      parameters: { Name: name },
      region: WEB_ACL_REGION,
      physicalResourceId: PhysicalResourceId.of(name),
    };
    const resource = new AwsCustomResource(this, 'Read', {
      onCreate: read,
      onUpdate: read,
      installLatestAwsSdk: false,
      // One small SDK call per deploy.
      memorySize: 256,
      timeout: Duration.minutes(1),
      policy: AwsCustomResourcePolicy.fromStatements([
        new PolicyStatement({
          actions: ['ssm:GetParameter'],
          resources: [`arn:${Aws.PARTITION}:ssm:${WEB_ACL_REGION}:${Aws.ACCOUNT_ID}:parameter${name}`],
        }),
      ]),
    });
    this.value = resource.getResponseField('Parameter.Value');

    // The handler is CDK's singleton at stack level, outside this construct's tree.
    const handler = Stack.of(this).node.tryFindChild(AWS_CUSTOM_RESOURCE_HANDLER);
    if (!handler) throw new Error('The AwsCustomResource handler is not where aws-cdk-lib puts it');
    NagSuppressions.addResourceSuppressions(
      handler,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            'The aws-cdk-lib AwsCustomResource handler writes its logs with AWSLambdaBasicExecutionRole.',
          appliesTo: [
            'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
          ],
        },
        {
          id: 'Serverless-LambdaDLQ',
          reason:
            'CloudFormation invokes the AwsCustomResource handler as a custom resource and fails the deploy when it fails; there is no asynchronous invocation to catch.',
        },
        {
          id: 'Serverless-LambdaTracing',
          reason:
            'The AwsCustomResource handler is aws-cdk-lib code that runs once per deploy; its configuration is not exposed for tracing.',
        },
      ],
      true,
    );
  }
}
