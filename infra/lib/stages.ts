import { PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

/** What differs between stages; everything else is the same stack. */
export interface StageConfig {
  /** The CloudFormation stack: every name in it derives from this, so stages live side by side in one account. */
  readonly stackName: string;
  /** How long function and workflow logs are kept. */
  readonly logRetention: RetentionDays;
  /**
   * A test mail sink (SES receiving for `domain` into a bucket, `MailSink`),
   * so the integration suite can read the mail this stage sends; `false`: never
   * on this stage.
   * @default none, unless `-c mailSinkDomain=...` asks for one
   */
  readonly mailSink?: { readonly domain: string } | false;
  /** Where CloudFront serves from: the edge locations whose prices the stage pays (no fixed cost either way). */
  readonly priceClass: PriceClass;
  /**
   * A WAF web ACL on the distribution (infra/lib/waf.ts, a us-east-1 companion
   * stack): `-c waf=on` adds it to a stage without it; the stage that has it keeps it.
   */
  readonly waf: boolean;
  /**
   * The API must have a domain of its own (`-c apiOriginDomain=... -c apiOriginCertificateArn=...`), so its
   * execute-api endpoint is off and nothing reaches a function around CloudFront (decision 013).
   */
  readonly apiOriginRequired: boolean;
}

/** The stages `cdk deploy -c stage=<name>` knows. */
export const stages = {
  // Dev serves its testers from the cheapest edge locations (North America, Europe, Israel).
  dev: {
    stackName: 'Tunesmith-dev',
    logRetention: RetentionDays.TWO_WEEKS,
    priceClass: PriceClass.PRICE_CLASS_100,
    waf: false,
    apiOriginRequired: false,
  },
  // Real users' stage: test mailboxes and the suite's test accounts stay out of it. Every edge location:
  // the product is offered worldwide and streams audio, and a listener in South America, Asia or
  // Oceania pays in latency for a far edge; the dearer locations cost only per request served there.
  prod: {
    stackName: 'Tunesmith-prod',
    logRetention: RetentionDays.THREE_MONTHS,
    mailSink: false,
    priceClass: PriceClass.PRICE_CLASS_ALL,
    waf: true,
    // Real users' capacity: a flood sent to the execute-api endpoint would skip the web ACL and the
    // route throttles' protection of CloudFront's path, so prod does not deploy with it on.
    apiOriginRequired: true,
  },
} as const satisfies Record<string, StageConfig>;

export type StageName = keyof typeof stages;

/** A stage as the stack gets it: its name and config, the mail sink resolved. */
export type Stage = { readonly name: StageName } & Omit<StageConfig, 'mailSink'> & {
    readonly mailSink?: { readonly domain: string };
  };

/** Settings from CDK context that adjust the stage (`-c mailSinkDomain=...`, `-c waf=on`). */
export interface StageContext {
  readonly mailSinkDomain?: unknown;
  readonly waf?: unknown;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * The stage named by `-c stage=...` (dev when none); an unknown name stops
 * synthesis, and so does a mail sink asked of a stage that takes none.
 */
export function stageNamed(value: unknown, context: StageContext = {}): Stage {
  const name = value === undefined || value === '' ? 'dev' : value;
  if (typeof name !== 'string' || !(name in stages)) {
    throw new Error(`Unknown stage "${String(value)}": use -c stage=${Object.keys(stages).join('|')}.`);
  }
  const config: StageConfig = stages[name as StageName];
  const asked = typeof context.mailSinkDomain === 'string' ? context.mailSinkDomain.trim().toLowerCase() : '';
  let mailSink = config.mailSink || undefined;
  if (asked) {
    if (config.mailSink === false) {
      throw new Error(
        `The ${name} stage takes no test mail sink (-c mailSinkDomain): run the suite against dev.`,
      );
    }
    if (!DOMAIN.test(asked)) throw new Error(`mailSinkDomain "${asked}" is not a domain name.`);
    mailSink = { domain: asked };
  }
  const { mailSink: _configured, ...rest } = config;
  return {
    name: name as StageName,
    ...rest,
    waf: wafOf(name, config, context.waf),
    ...(mailSink ? { mailSink } : {}),
  };
}

/** `-c waf=on|off` over the stage's own setting; a stage that has the web ACL cannot be deployed without it. */
function wafOf(name: string, config: StageConfig, asked: unknown): boolean {
  if (asked === undefined || asked === '') return config.waf;
  if (asked === 'on' || asked === true) return true;
  if (asked === 'off' || asked === false) {
    if (config.waf)
      throw new Error(`The ${name} stage always has its web ACL (-c waf=off is for stages without one).`);
    return false;
  }
  throw new Error(`waf "${String(asked)}" is neither on nor off.`);
}
