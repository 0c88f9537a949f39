/**
 * The environment the local cloud hands to the functions, one entry per
 * variable: what it means and its value on `npm start` with the default ports.
 * On AWS the CDK app sets the same names (the AWS_* ones come from the Lambda
 * runtime). `.env.example` documents this list.
 */
export const localEnvVars = [
  { name: 'TABLE_NAME', description: 'The single DynamoDB table', local: 'tunesmith' },
  { name: 'AWS_REGION', description: 'AWS region of every client', local: 'us-east-1' },
  {
    name: 'AWS_ACCESS_KEY_ID',
    description: 'Dummy credentials; s3rver accepts only this key id, the other emulators accept any',
    local: 'S3RVER',
  },
  { name: 'AWS_SECRET_ACCESS_KEY', description: 'Dummy secret for the emulators', local: 'S3RVER' },
  {
    name: 'AWS_REQUEST_CHECKSUM_CALCULATION',
    description:
      'SDK setting: s3rver stores aws-chunked framing unless checksums are sent only when required',
    local: 'WHEN_REQUIRED',
  },
  {
    name: 'AWS_RESPONSE_CHECKSUM_VALIDATION',
    description: 'SDK setting: s3rver returns no checksums to validate',
    local: 'WHEN_REQUIRED',
  },
  { name: 'DYNAMODB_ENDPOINT', description: 'DynamoDB Local; unset on AWS', local: 'http://127.0.0.1:8600' },
  { name: 'S3_ENDPOINT', description: 's3rver; unset on AWS', local: 'http://127.0.0.1:8601' },
  {
    name: 'S3_FORCE_PATH_STYLE',
    description: 'Path-style S3 URLs (s3rver on 127.0.0.1 has no bucket subdomains); unset on AWS',
    local: 'true',
  },
  { name: 'UPLOADS_BUCKET', description: 'Bucket for user uploads', local: 'tunesmith-uploads' },
  { name: 'TRACKS_BUCKET', description: 'Bucket for generated tracks', local: 'tunesmith-tracks' },
  {
    name: 'SITE_BUCKET',
    description: "The site's bucket: share pages of public tracks (share/track/{id}.html)",
    local: 'tunesmith-site',
  },
  {
    name: 'SHARE_TEMPLATE_FILE',
    description:
      'Local only: the template share pages are written from (unset on AWS: pages/track.html, else index.html, in SITE_BUCKET)',
    local: 'web/dist/pages/track.html, else web/dist/index.html, else web/index.html',
  },
  {
    name: 'PRICING_PAGE_FILE',
    description:
      "Local only: the pricing page's document, filled in with the plans (unset on AWS: pages/pricing.html in SITE_BUCKET)",
    local: 'web/dist/pages/pricing.html with npm start -- --static (the build it serves), else empty',
  },
  {
    name: 'COGNITO_ENDPOINT',
    description:
      'cognito-local, through the proxy that adds global sign-out; token issuer is <COGNITO_ENDPOINT>/<pool id>; unset on AWS',
    local: 'http://127.0.0.1:8602',
  },
  {
    name: 'USER_POOL_ID',
    description: 'Cognito user pool (sign-in by email)',
    local: 'created on first start',
  },
  {
    name: 'USER_POOL_CLIENT_ID',
    description: 'App client of the user pool',
    local: 'created on first start',
  },
  {
    name: 'ADMIN_POOL_ID',
    description: 'Cognito admin pool (sign-in by username)',
    local: 'created on first start',
  },
  {
    name: 'ADMIN_POOL_CLIENT_ID',
    description: 'App client of the admin pool',
    local: 'created on first start',
  },
  { name: 'SES_ENDPOINT', description: 'aws-ses-v2-local; unset on AWS', local: 'http://127.0.0.1:8603' },
  {
    name: 'FAL_BASE_URL',
    description:
      'Where the fal client sends its requests (the embedded music provider); unset on AWS (fal.ai itself)',
    local: 'http://127.0.0.1:8604',
  },
  {
    name: 'FAL_WEBHOOK_JWKS_URL',
    description: 'JWKS that signs music provider webhooks; on AWS https://rest.fal.ai/.well-known/jwks.json',
    local: 'http://127.0.0.1:8604/.well-known/jwks.json',
  },
  {
    name: 'FAL_KEY',
    description:
      'fal API key when site settings have none; the embedded provider accepts any key; a secret on AWS',
    local: 'local:embedded-provider',
  },
  {
    name: 'STRIPE_API_BASE',
    description:
      'Where the Stripe SDK sends its requests (the embedded Stripe); unset on AWS (api.stripe.com)',
    local: 'http://127.0.0.1:8606',
  },
  {
    name: 'STRIPE_SECRET_KEY',
    description:
      'Stripe secret key when site settings have none; locally the embedded Stripe key (made on first start, kept in the data directory); on AWS it comes from Secrets Manager (STRIPE_SECRET_ARN) instead',
    local: 'made on first start',
  },
  {
    name: 'STRIPE_WEBHOOK_SECRET',
    description:
      'Signing secret of Stripe webhooks (whsec_...) when site settings have none; locally the embedded Stripe signs with it; on AWS from Secrets Manager',
    local: 'made on first start',
  },
  {
    name: 'SETTINGS_LOCAL_KEY',
    description:
      'Base64 AES-256 key that seals secret site settings locally (in place of KMS); unset on AWS, where SETTINGS_KMS_KEY_ID names the key',
    local: 'made on first start, kept in .data/settings.key',
  },
  {
    name: 'AUDIO_SIGNING_KEY_PAIR_ID',
    description:
      'Id of the key that signs play and download links (CloudFront signed URLs to /tracks/*); on AWS the CloudFront public key id',
    local: 'made on first start from the key in .data/audio-signing.pem',
  },
  {
    name: 'AUDIO_SIGNING_PRIVATE_KEY',
    description:
      'RSA private key (PEM) that signs play and download links locally; on AWS the functions read it from the secret AUDIO_SIGNING_SECRET_ARN instead',
    local: 'made on first start, kept in .data/audio-signing.pem',
  },
  {
    name: 'STEPFUNCTIONS_ENDPOINT',
    description: 'The local Step Functions endpoint (runs the generation workflow); unset on AWS',
    local: 'http://127.0.0.1:8605',
  },
  {
    name: 'STATE_MACHINE_ARN',
    description: 'The generation state machine that each generation starts an execution of',
    local: 'arn:aws:states:us-east-1:000000000000:stateMachine:tunesmith-generation',
  },
  {
    name: 'LAMBDA_ENDPOINT',
    description:
      'The local Lambda endpoint (runs background jobs: export, account deletion, as asynchronous invocations); unset on AWS',
    local: 'http://127.0.0.1:8607',
  },
  {
    name: 'JOBS_FUNCTION_NAME',
    description: 'The function that runs background jobs, invoked asynchronously by the API',
    local: 'tunesmith-jobs',
  },
  {
    name: 'WEBHOOKS_FUNCTION_NAME',
    description:
      'The function that delivers webhooks for developers, started by the workflow and every minute',
    local: 'tunesmith-webhook-delivery',
  },
  {
    name: 'WEBHOOKS_ALLOW_LOOPBACK',
    description:
      'Local only: webhooks may go to http:// URLs and loopback addresses (a listener on 127.0.0.1); never set on AWS',
    local: 'true',
  },
  {
    name: 'WEBHOOK_BASE_URL',
    description: 'Origin the music provider posts its webhooks to (/api/webhooks/fal); the API origin',
    local: 'http://127.0.0.1:3000',
  },
  { name: 'MAIL_FROM', description: 'Sender of account mail', local: 'Tunesmith <no-reply@tunesmith.local>' },
  { name: 'SITE_NAME', description: 'Product name in account mail', local: 'Tunesmith' },
  {
    name: 'TRUSTED_PROXY_HOPS',
    description: 'Proxies in front of API Gateway whose X-Forwarded-For entries are trusted (CloudFront: 1)',
    local: '1',
  },
  {
    name: 'PUBLIC_ORIGIN',
    description: 'Origin the app is served from: links in mail, Origin checks',
    local: 'http://127.0.0.1:3000',
  },
  {
    name: 'API_KEY_MODE',
    description: 'Local only: `test` makes API keys ts_test_ keys (unset on AWS: ts_live_)',
    local: 'test',
  },
  { name: 'LOG_LEVEL', description: 'Set to `silent` to mute handler logs', local: 'info' },
  {
    name: 'POWERTOOLS_METRICS_DISABLED',
    description: 'Keeps the functions from printing CloudWatch metrics (embedded metric format)',
    local: 'true',
  },
] as const;

export type LocalEnvName = (typeof localEnvVars)[number]['name'];

/** The names alone, for checks and documentation. */
export const localEnvNames: readonly LocalEnvName[] = localEnvVars.map((entry) => entry.name);

/**
 * Ports and options `npm start` reads (not passed to the functions).
 */
export const startEnvVars = [
  { name: 'PORT', description: 'Port of the app (SPA and /api on one origin)', local: '3000' },
  { name: 'DYNAMODB_PORT', description: 'Port of DynamoDB Local (listens on all interfaces)', local: '8600' },
  { name: 'S3_PORT', description: 'Port of s3rver', local: '8601' },
  {
    name: 'COGNITO_PORT',
    description: 'Port of the Cognito endpoint (a proxy in front of cognito-local)',
    local: '8602',
  },
  { name: 'SES_PORT', description: 'Port of aws-ses-v2-local', local: '8603' },
  {
    name: 'MUSIC_PORT',
    description: 'Port of the embedded music provider (fal queue protocol)',
    local: '8604',
  },
  {
    name: 'STRIPE_PORT',
    description: 'Port of the embedded Stripe (its API, hosted Checkout and portal pages)',
    local: '8606',
  },
  {
    name: 'STEPFUNCTIONS_PORT',
    description: 'Port of the local Step Functions endpoint (AWS JSON protocol)',
    local: '8605',
  },
  {
    name: 'LAMBDA_PORT',
    description: 'Port of the local Lambda endpoint (asynchronous Invoke of the jobs function)',
    local: '8607',
  },
  { name: 'TUNESMITH_DATA_DIR', description: 'Where local data persists', local: '.data' },
  {
    name: 'TUNESMITH_START_TIMINGS',
    description: "Set to 1 to print where npm start's time goes ([start] lines on stderr)",
    local: '',
  },
] as const;
