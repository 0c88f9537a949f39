import { tableDesign } from '@tunesmith/functions/data/keys';
import { TABLE_RECOVERY_DAYS } from '@tunesmith/shared/data-retention';
import { EXPORT_KEEP_DAYS } from '@tunesmith/shared/ownership';
import { describe, expect, it } from 'vitest';
import { flatten, logicalId, propsOf, synthBeforeAll } from './helpers';

const synthesized = synthBeforeAll();
const { resources } = synthesized;

describe('table', () => {
  it('is built from tableDesign: keys, GSIs with ALL projection, TTL', () => {
    const tables = Object.values(resources).filter((r) => r.Type === 'AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const props = tables[0]?.Properties ?? {};
    expect(props.KeySchema).toEqual([
      { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
    ]);
    const indexes = Object.values(tableDesign.indexes);
    expect(props.GlobalSecondaryIndexes).toEqual(
      indexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    const keyAttributes = [
      tableDesign.partitionKey,
      tableDesign.sortKey,
      ...indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];
    expect(
      (props.AttributeDefinitions as { AttributeName: string }[]).map((a) => a.AttributeName).sort(),
    ).toEqual(keyAttributes.sort());
    // Every key is a string but the ranking's sort key, a number (decision 056): a counter moved with ADD
    // keeps its item's place in the index.
    const typeOf = Object.fromEntries(
      (props.AttributeDefinitions as { AttributeName: string; AttributeType: string }[]).map((a) => [
        a.AttributeName,
        a.AttributeType,
      ]),
    );
    for (const name of keyAttributes)
      expect(typeOf[name], name).toBe(name === tableDesign.indexes.ranking.sortKey ? 'N' : 'S');
    expect(indexes.map((index) => index.indexName)).toContain('ranking');
    expect(props.TimeToLiveSpecification).toEqual({ AttributeName: tableDesign.ttlAttribute, Enabled: true });
  });

  it('is on-demand, point-in-time recoverable for the days the privacy policy states, encrypted with the AWS-managed key and protected from deletion', () => {
    const [, table] = Object.entries(resources).find(([, r]) => r.Type === 'AWS::DynamoDB::Table') ?? [];
    const props = table?.Properties ?? {};
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.PointInTimeRecoverySpecification).toEqual({
      PointInTimeRecoveryEnabled: true,
      RecoveryPeriodInDays: TABLE_RECOVERY_DAYS,
    });
    expect(TABLE_RECOVERY_DAYS).toBe(35);
    expect(props.SSESpecification).toEqual({ SSEEnabled: true });
    expect(props.DeletionProtectionEnabled).toBe(true);
    expect((table as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
  });
});

describe('buckets', () => {
  const buckets = () => Object.entries(resources).filter(([, r]) => r.Type === 'AWS::S3::Bucket');

  it('all block public access, are encrypted and are retained', () => {
    expect(buckets()).toHaveLength(4);
    for (const [id, bucket] of buckets()) {
      expect(bucket.Properties?.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties?.BucketEncryption).toEqual({
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      });
      expect((bucket as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
    }
  });

  it('all deny requests without TLS', () => {
    for (const [id] of buckets()) {
      const policy = Object.values(resources).find(
        (r) => r.Type === 'AWS::S3::BucketPolicy' && flatten(r.Properties?.Bucket) === `{Ref:${id}}`,
      );
      const statements = (propsOf(policy).PolicyDocument as { Statement: Record<string, unknown>[] })
        .Statement;
      expect(statements, id).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 's3:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('log access to the access log bucket, and abort stale multipart uploads', () => {
    const { stack } = synthesized;
    const logs = logicalId(stack, stack.data.accessLogs.node.defaultChild);
    for (const [id, bucket] of buckets()) {
      if (id === logs) continue;
      expect(
        flatten(
          (propsOf(bucket).LoggingConfiguration as { DestinationBucketName: unknown }).DestinationBucketName,
        ),
        id,
      ).toBe(`{Ref:${logs}}`);
    }
    for (const bucket of [stack.data.uploads, stack.data.tracks]) {
      const rules = (
        propsOf(resources[logicalId(stack, bucket.node.defaultChild)]).LifecycleConfiguration as {
          Rules: Record<string, unknown>[];
        }
      ).Rules;
      expect(rules).toContainEqual(
        expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
      );
    }
  });

  it('let the site (and only the site) PUT uploads from the browser and read the ETag', () => {
    const { stack } = synthesized;
    const uploads = resources[logicalId(stack, stack.data.uploads.node.defaultChild)]?.Properties ?? {};
    const distribution = logicalId(stack, stack.web.distribution.node.defaultChild);
    const [rule, ...others] = (uploads.CorsConfiguration as { CorsRules: Record<string, unknown>[] })
      .CorsRules;
    expect(others).toEqual([]);
    expect(rule?.AllowedMethods).toEqual(['PUT']);
    // The presigned PUT signs Content-Type; the browser must be allowed to send it.
    expect(rule?.AllowedHeaders).toEqual(['Content-Type']);
    expect(rule?.ExposedHeaders).toEqual(['ETag']);
    expect(((rule?.AllowedOrigins ?? []) as unknown[]).map(flatten)).toEqual([
      `https://{${distribution}.DomainName}`,
    ]);
    const tracks = resources[logicalId(stack, stack.data.tracks.node.defaultChild)]?.Properties ?? {};
    expect(tracks.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    // Audio plays in a plain <audio src> and downloads by navigation: no CORS needed, none given.
    expect(tracks.CorsConfiguration).toBeUndefined();
  });

  it('keep checked uploads (a remix keeps using its upload), expire unchecked ones and abandoned multipart uploads after a day', () => {
    const { stack } = synthesized;
    const rules = (
      propsOf(resources[logicalId(stack, stack.data.uploads.node.defaultChild)]).LifecycleConfiguration as {
        Rules: Record<string, unknown>[];
      }
    ).Rules;
    expect(rules).toEqual([
      expect.objectContaining({
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        Status: 'Enabled',
      }),
      expect.objectContaining({ Prefix: 'incoming/', ExpirationInDays: 1, Status: 'Enabled' }),
    ]);
    expect(rules.filter((rule) => 'ExpirationInDays' in rule)).toHaveLength(1);
  });
});

describe('which buckets keep versions', () => {
  it('only the tracks bucket: the uploads and site buckets keep none, so a delete there is final', () => {
    const { stack } = synthesized;
    const versioning = (bucket: { node: { defaultChild?: unknown } }) =>
      propsOf(resources[logicalId(stack, bucket.node.defaultChild)]).VersioningConfiguration;
    expect(versioning(stack.data.tracks)).toEqual({ Status: 'Enabled' });
    expect(versioning(stack.data.uploads)).toBeUndefined();
    expect(versioning(stack.web.bucket)).toBeUndefined();
  });
});

describe('tracks bucket versions', () => {
  it('expire old versions and then the delete markers they leave', () => {
    const { stack } = synthesized;
    const rules = (
      propsOf(resources[logicalId(stack, stack.data.tracks.node.defaultChild)]).LifecycleConfiguration as {
        Rules: Record<string, unknown>[];
      }
    ).Rules;
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 30 } }),
        expect.objectContaining({ ExpiredObjectDeleteMarker: true }),
      ]),
    );
  });
});

describe('export zips', () => {
  it('expire a week after they are written, an overwritten one a day later, and nothing else in the bucket expires', () => {
    const { stack } = synthesized;
    const rules = (
      propsOf(resources[logicalId(stack, stack.data.tracks.node.defaultChild)]).LifecycleConfiguration as {
        Rules: Record<string, unknown>[];
      }
    ).Rules;
    const expiring = rules.filter((rule) => 'ExpirationInDays' in rule);
    expect(expiring).toEqual([
      expect.objectContaining({
        Prefix: 'exports/',
        ExpirationInDays: EXPORT_KEEP_DAYS,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
        Status: 'Enabled',
      }),
    ]);
    expect(EXPORT_KEEP_DAYS).toBe(7);
  });
});
