/**
 * Stands in for `@aws-sdk/credential-provider-node` in Lambda bundles
 * (lambda-bundle.ts). On Lambda the role's credentials are always in the
 * environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN),
 * so the rest of the default chain (profiles, SSO, web identity, instance
 * metadata, and the STS and SSO clients they carry) is dead weight that every
 * cold start would parse.
 */
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
