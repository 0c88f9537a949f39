import { tableDesign } from '@tunesmith/functions/data/keys';
import { EXPORTS_AREA } from '@tunesmith/functions/domain/exports/ports';
import { INCOMING_AREA } from '@tunesmith/functions/domain/uploads/uploads';
import { TABLE_RECOVERY_DAYS } from '@tunesmith/shared/data-retention';
import { EXPORT_KEEP_DAYS } from '@tunesmith/shared/ownership';
import { Aws, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type BucketProps,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface DataProps {
  /**
   * Days before access logs (S3 server access logs and CloudFront logs) expire.
   * @default 90
   */
  readonly accessLogRetentionDays?: number;
  /**
   * Days before old versions in the tracks bucket expire: what was replaced,
   * or deleted by other means than the product (an operator, a lifecycle
   * rule). What users and administrators delete goes with every version at
   * once (decision 034), so this keeps nothing they deleted.
   * @default 30
   */
  readonly trackVersionRetentionDays?: number;
}

/**
 * Stateful storage: the single table (built only from `tableDesign`), the
 * uploads and tracks buckets, and the bucket every access log goes to.
 * Everything here is retained when the stack is deleted.
 */
export class Data extends Construct {
  readonly table: Table;
  readonly uploads: Bucket;
  readonly tracks: Bucket;
  readonly accessLogs: Bucket;
  /**
   * `https://` origin of the uploads bucket's regional endpoint, where browsers
   * send presigned PUTs. Built from the bucket's fixed name, not from the bucket
   * resource, so that the site's CSP can name it while the bucket's CORS names
   * the site (a reference both ways would be a dependency cycle).
   */
  readonly uploadsOrigin: string;

  constructor(scope: Construct, id: string, props: DataProps = {}) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableDesign.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDesign.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      // The privacy policy says how long deleted data stays in these backups: the same constant.
      pointInTimeRecoverySpecification: {
        pointInTimeRecoveryEnabled: true,
        recoveryPeriodInDays: TABLE_RECOVERY_DAYS,
      },
      timeToLiveAttribute: tableDesign.ttlAttribute,
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(tableDesign.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: {
          name: index.sortKey,
          type: 'sortKeyType' in index ? AttributeType.NUMBER : AttributeType.STRING,
        },
        projectionType: ProjectionType.ALL,
      });
    }

    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...privateBucket,
      // CloudFront standard logging delivers through ACLs, so they stay enabled on this bucket only.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [
        { expiration: Duration.days(props.accessLogRetentionDays ?? 90) },
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });

    // A name known up front breaks the CSP <-> CORS cycle (see uploadsOrigin). The stack name keeps stages apart;
    // the first part of the stack's own id keeps a new stack after a destroy (whose retained bucket lives on) apart.
    const stackInstance = Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID))));
    const uploadsBucketName = `${Stack.of(this).stackName.toLowerCase()}-uploads-${stackInstance}-${Aws.REGION}`;
    this.uploads = new Bucket(this, 'Uploads', {
      ...privateBucket,
      bucketName: uploadsBucketName,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'uploads/',
      // Uploads are transient inputs that users replace; old versions would only keep data we promised to delete.
      versioned: false,
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Files browsers put but nobody had checked (normalize-path moves checked ones out) go after a day.
        // Checked uploads do not expire: a remix's track keeps pointing at its upload, deleted with the track.
        { prefix: INCOMING_AREA, expiration: Duration.days(1) },
      ],
    });
    this.uploadsOrigin = `https://${uploadsBucketName}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;

    // Browsers reach track audio through the site's distribution (/tracks/*, signed links; decision 008),
    // never this bucket's own endpoint, so it needs no CORS.
    this.tracks = new Bucket(this, 'Tracks', {
      ...privateBucket,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'tracks/',
      // Undoes an operator's mistake. The functions delete every version of what users delete
      // (functions/src/adapters/s3/versions.ts), so nothing they deleted is kept.
      versioned: true,
      lifecycleRules: [
        { noncurrentVersionExpiration: Duration.days(props.trackVersionRetentionDays ?? 30) },
        // Once a deleted track's old versions have expired, its delete marker is cleared too.
        { expiredObjectDeleteMarker: true },
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Export zips (decision 021) are deleted after a week, and an overwritten one (a retried job) a day later.
        {
          prefix: EXPORTS_AREA,
          expiration: Duration.days(EXPORT_KEEP_DAYS),
          noncurrentVersionExpiration: Duration.days(1),
        },
      ],
    });
  }

  /**
   * Lets browsers on `origin` send presigned PUTs (a whole file, or a multipart
   * part) with the signed Content-Type, and read the ETag a multipart upload needs.
   */
  allowBrowserUploadsFrom(origin: string): void {
    this.uploads.addCorsRule({
      allowedOrigins: [origin],
      allowedMethods: [HttpMethods.PUT],
      allowedHeaders: ['Content-Type'],
      exposedHeaders: ['ETag'],
      maxAge: 3600,
    });
  }
}

/** What every bucket of the app shares: private, TLS only, encrypted, kept on stack deletion. */
export const privateBucket = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  encryption: BucketEncryption.S3_MANAGED,
  removalPolicy: RemovalPolicy.RETAIN,
} as const satisfies BucketProps;
