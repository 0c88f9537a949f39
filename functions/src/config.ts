/**
 * Runtime settings from the environment, read when first needed so that the
 * local cloud can set them before a handler runs. Names are documented in
 * `.env.example`.
 */
export interface RuntimeConfig {
  region: string;
  tableName: string;
  /** Set only locally: where DynamoDB Local listens. */
  dynamoEndpoint: string | undefined;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

export function runtimeConfig(): RuntimeConfig {
  return {
    region: process.env.AWS_REGION ?? 'us-east-1',
    tableName: required('TABLE_NAME'),
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
  };
}
