import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  type PasswordPolicy,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolClientOptions,
} from 'aws-cdk-lib/aws-cognito';
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
 * email and sign themselves up; admins sign in by username and are created by
 * `npm run admin:create`. The API talks to both server side with
 * USER_PASSWORD_AUTH and admin APIs; the browser never sees a token, so
 * Cognito's hosted UI, OAuth flows and mails are all off.
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
      selfSignUpEnabled: true,
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
      // The admin change-password call accepts 6 characters (spec 2); the pool must not refuse what the API allows.
      passwordPolicy: { ...noCompositionRules, minLength: 6 },
    });

    const tokenValidity = {
      accessTokenValidity: props.accessTokenValidity ?? Duration.minutes(15),
      idTokenValidity: props.accessTokenValidity ?? Duration.minutes(15),
      refreshTokenValidity: props.refreshTokenValidity ?? Duration.days(30),
    };
    this.userPoolClient = this.userPool.addClient('Client', { ...clientDefaults, ...tokenValidity });
    this.adminPoolClient = this.adminPool.addClient('Client', { ...clientDefaults, ...tokenValidity });

    for (const pool of [this.userPool, this.adminPool]) {
      NagSuppressions.addResourceSuppressions(pool, [
        {
          id: 'AwsSolutions-COG1',
          reason:
            'The product spec sets length-only password rules (users 8, admins 6) with no composition rules, as NIST SP 800-63B recommends.',
        },
        {
          id: 'AwsSolutions-COG2',
          reason:
            'The product has no MFA; sign-in is rate limited per account and per client address by the API.',
        },
        {
          id: 'AwsSolutions-COG8',
          reason:
            'Threat protection needs the Plus plan (billed per MAU) and sees only the Lambda address on server-side USER_PASSWORD_AUTH; the API rate-limits sign-in itself. Revisit with FeaturePlan.PLUS and context data.',
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

const clientDefaults: UserPoolClientOptions = {
  // The client id never reaches a browser (only the API calls Cognito), so a secret would add a SECRET_HASH
  // to every call for little gain.
  generateSecret: false,
  authFlows: { userPassword: true },
  disableOAuth: true,
  supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
  preventUserExistenceErrors: true,
  enableTokenRevocation: true,
};
