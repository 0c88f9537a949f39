import { SECOND_FACTOR_MINUTES } from '@tunesmith/functions/domain/accounts/admin';
import { BLOCKED_COGNITO_OPERATIONS } from '@tunesmith/shared/cognito';
import { ADMIN_PASSWORD_MIN_LENGTH } from '@tunesmith/shared/constants';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  type PasswordPolicy,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolClientOptions,
} from 'aws-cdk-lib/aws-cognito';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export interface AuthProps {
  /**
   * Lifetime of access (and ID) tokens; short because the session cookie
   * refreshes them transparently and revocation takes effect at expiry.
   * @default Duration.minutes(15)
   */
  readonly accessTokenValidity?: Duration;
  /**
   * Lifetime of refresh tokens: how long a session lasts without signing in again.
   * @default Duration.days(30)
   */
  readonly refreshTokenValidity?: Duration;
}

/**
 * The two Cognito pools (DESIGN.md, Accounts and sessions): users sign in by
 * email, admins by username and, every time, an authenticator's code
 * (docs/decisions/036-administrators-second-factor.md). Every identity is made by the API with admin
 * calls (sign-up through `POST /api/auth/register`, admins through
 * `npm run admin:create`), so neither pool accepts Cognito's own SignUp. The
 * API signs in with ADMIN_USER_PASSWORD_AUTH (answering the admin pool's
 * MFA_SETUP and SOFTWARE_TOKEN_MFA challenges) and refreshes with the refresh
 * token; Cognito's hosted UI, OAuth flows and mails are all off. A user holds
 * their own tokens (in their cookies) and can read the client id from them,
 * so the clients let a token write no attribute that matters
 * (docs/decisions/014-cognito-side-doors.md).
 */
export class Auth extends Construct {
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  readonly adminPool: UserPool;
  readonly adminPoolClient: UserPoolClient;

  constructor(scope: Construct, id: string, props: AuthProps = {}) {
    super(scope, id);

    this.userPool = new UserPool(this, 'UserPool', {
      ...poolDefaults,
      signInAliases: { email: true },
      // Sign-up is the API's (it checks the address with its own token first); Cognito's SignUp is refused.
      selfSignUpEnabled: false,
      // The app verifies addresses with its own single-use tokens and confirms through admin APIs.
      autoVerify: { email: false, phone: false },
      standardAttributes: { email: { required: true, mutable: true } },
      // Spec: minimum 8, no composition rules (NIST SP 800-63B).
      passwordPolicy: { ...noCompositionRules, minLength: 8 },
    });

    this.adminPool = new UserPool(this, 'AdminPool', {
      ...poolDefaults,
      signInAliases: { username: true },
      selfSignUpEnabled: false,
      // Administrators can change everything and see every private track (decision 036): 12 characters, as the
      // API asks (ADMIN_PASSWORD_MIN_LENGTH), still without composition rules.
      passwordPolicy: { ...noCompositionRules, minLength: ADMIN_PASSWORD_MIN_LENGTH },
      // Every admin sign-in asks for an authenticator's code; one is set up at the first sign-in (MFA_SETUP).
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
    });

    const tokenValidity = {
      accessTokenValidity: props.accessTokenValidity ?? Duration.minutes(15),
      idTokenValidity: props.accessTokenValidity ?? Duration.minutes(15),
      refreshTokenValidity: props.refreshTokenValidity ?? Duration.days(30),
    };
    this.userPoolClient = this.userPool.addClient('Client', { ...clientDefaults, ...tokenValidity });
    this.adminPoolClient = this.adminPool.addClient('Client', {
      ...clientDefaults,
      ...tokenValidity,
      // Time between the password and the second factor: enough to install an authenticator app and scan its code.
      authSessionValidity: Duration.minutes(SECOND_FACTOR_MINUTES),
    });

    // Regional web ACL in front of both pools' public endpoints. Cognito passes the calls that carry a client id
    // or a user's token through it (admin calls with IAM credentials are not the web ACL's to judge), so the
    // operations above are blocked before Cognito runs them; everything else is allowed.
    const sideDoors = new CfnWebACL(this, 'SideDoors', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: 'CognitoSideDoors',
        sampledRequestsEnabled: true,
      },
      rules: [
        {
          name: 'BlockUserApisTheAppNeverCalls',
          priority: 0,
          action: { block: {} },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: 'CognitoSideDoorsBlocked',
            sampledRequestsEnabled: true,
          },
          statement: {
            orStatement: {
              statements: blockedCognitoOperations.flatMap((operation) =>
                cognitoOperationHeaders.map(({ header, value }) => ({
                  byteMatchStatement: {
                    fieldToMatch: { singleHeader: { Name: header } },
                    positionalConstraint: 'EXACTLY',
                    // Compared lowercased, so no spelling of the name gets past.
                    searchString: value(operation).toLowerCase(),
                    textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
                  },
                })),
              ),
            },
          },
        },
      ],
    });
    for (const [id, pool] of [
      ['UserPoolSideDoors', this.userPool],
      ['AdminPoolSideDoors', this.adminPool],
    ] as const) {
      new CfnWebACLAssociation(this, id, { resourceArn: pool.userPoolArn, webAclArn: sideDoors.attrArn });
    }

    NagSuppressions.addResourceSuppressions(this.userPool, [
      {
        id: 'AwsSolutions-COG1',
        reason:
          "Users' passwords need 8 characters and no composition rules: NIST SP 800-63B asks at least 8 and recommends against composition rules.",
      },
      {
        id: 'AwsSolutions-COG2',
        reason:
          'Users have no second factor (the product spec has none); their sign-in is rate limited per account and per client address by the API.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.adminPool, [
      {
        id: 'AwsSolutions-COG1',
        reason:
          "Administrators' passwords need 12 characters (more than NIST SP 800-63B's 8) and no composition rules, which 800-63B recommends against; every admin sign-in also needs an authenticator's code (MFA required).",
      },
    ]);
    for (const pool of [this.userPool, this.adminPool]) {
      NagSuppressions.addResourceSuppressions(pool, [
        {
          id: 'AwsSolutions-COG8',
          reason:
            'Threat protection needs the Plus plan (billed per MAU) and sees only the Lambda address on server-side ADMIN_USER_PASSWORD_AUTH; the API rate-limits sign-in itself. Revisit with FeaturePlan.PLUS and context data.',
        },
      ]);
    }
  }
}

const poolDefaults = {
  // Nothing needs Essentials features; Lite is the cheapest plan.
  featurePlan: FeaturePlan.LITE,
  mfa: Mfa.OFF,
  signInCaseSensitive: false,
  // Password reset goes through the app's own tokens and AdminSetUserPassword.
  accountRecovery: AccountRecovery.NONE,
  deletionProtection: true,
  removalPolicy: RemovalPolicy.RETAIN,
} as const;

const noCompositionRules = {
  requireLowercase: false,
  requireUppercase: false,
  requireDigits: false,
  requireSymbols: false,
} as const satisfies PasswordPolicy;

/**
 * Where a call's operation shows in what Cognito passes to the web ACL.
 * Cognito documents `x-amzn-cognito-operation-name` (the operation's name) on
 * the calls of its native API; `X-Amz-Target`, the header the caller sends,
 * is matched too, as Cognito does not say whether it passes it on
 * (decision 014).
 */
export const cognitoOperationHeaders: readonly { header: string; value: (operation: string) => string }[] = [
  { header: 'x-amzn-cognito-operation-name', value: (operation) => operation },
  { header: 'x-amz-target', value: (operation) => `AWSCognitoIdentityProviderService.${operation}` },
];

/**
 * The user APIs the pools' web ACL blocks (shared/src/cognito.ts, decision 014).
 * SignUp, password sign-in, ForgotPassword and attribute writes are refused by
 * the settings below, with Cognito's own errors.
 */
export const blockedCognitoOperations = BLOCKED_COGNITO_OPERATIONS;

/**
 * What a token of these clients may write and read through Cognito's own
 * user APIs (UpdateUserAttributes, GetUser). The app changes attributes only
 * with admin calls, which these lists do not limit. An empty list would mean
 * "every standard attribute" to Cognito (it treats `[]` as unset), so each
 * list names one attribute the app never reads: `locale`.
 */
const harmlessOnly = () => new ClientAttributes().withStandardAttributes({ locale: true });

const clientDefaults: UserPoolClientOptions = {
  // A user can read the client id from their own token, so a secret would hide nothing; it would only add a
  // SECRET_HASH to every call. What the client id allows is limited instead (decision 014).
  generateSecret: false,
  // Sign-in is an admin call (IAM credentials), so nobody can guess passwords at Cognito around the API's
  // rate limits; CDK adds ALLOW_REFRESH_TOKEN_AUTH, which the session cookie needs.
  authFlows: { adminUserPassword: true },
  readAttributes: harmlessOnly(),
  writeAttributes: harmlessOnly(),
  disableOAuth: true,
  supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
  preventUserExistenceErrors: true,
  enableTokenRevocation: true,
};
