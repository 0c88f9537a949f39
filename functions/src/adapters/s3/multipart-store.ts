/**
 * The multipart port on S3: S3's own multipart upload of one object of the
 * uploads bucket, with its parts PUT by the browser through presigned links.
 */
import type { ListPartsCommandOutput } from '@aws-sdk/client-s3';
import { uploadMessages } from '@tunesmith/shared/uploads';
import { notFound, validationError } from '../../domain/errors';
import type { MultipartStore } from '../../domain/uploads/multipart';
import type { S3 } from './client';
import { UPLOAD_LINK_SECONDS } from './links';

const errorName = (error: unknown) => (error instanceof Error ? error.name : undefined);

/** S3's answer for a key and upload id that do not name a live upload. */
const isNoSuchUpload = (error: unknown) =>
  errorName(error) === 'NoSuchUpload' ||
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;

export function s3MultipartStore(s3: S3, bucket: string, expiresIn = UPLOAD_LINK_SECONDS): MultipartStore {
  return {
    async create(key, contentType) {
      const { sdk, client } = await s3();
      const answer = await client.send(
        new sdk.CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
      );
      if (!answer.UploadId) throw new Error('S3 started a multipart upload without an UploadId');
      return { uploadId: answer.UploadId };
    },
    async partLink(key, uploadId, partNumber, size) {
      const { sdk, client } = await s3();
      const url = await sdk.getSignedUrl(
        client,
        new sdk.UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
          ContentLength: size,
        }),
        // The length is signed: S3 refuses a part of any other size, as it does a single upload's.
        { expiresIn, signableHeaders: new Set(['content-length']) },
      );
      return { url, expiresIn };
    },
    async listParts(key, uploadId) {
      const { sdk, client } = await s3();
      const parts: { PartNumber: number; ETag: string; Size: number }[] = [];
      let marker: string | undefined;
      // At most 10000 parts, 1000 a page.
      for (let page = 0; page < 10; page++) {
        let answer: ListPartsCommandOutput;
        try {
          answer = await client.send(
            new sdk.ListPartsCommand({
              Bucket: bucket,
              Key: key,
              UploadId: uploadId,
              ...(marker ? { PartNumberMarker: marker } : {}),
            }),
          );
        } catch (error) {
          if (isNoSuchUpload(error)) return undefined;
          throw error;
        }
        for (const part of answer.Parts ?? []) {
          if (part.PartNumber === undefined || !part.ETag) continue;
          parts.push({ PartNumber: part.PartNumber, ETag: part.ETag, Size: part.Size ?? 0 });
        }
        if (!answer.IsTruncated || !answer.NextPartNumberMarker) break;
        marker = answer.NextPartNumberMarker;
      }
      return parts.sort((a, b) => a.PartNumber - b.PartNumber);
    },
    async complete(key, uploadId, parts) {
      const { sdk, client } = await s3();
      try {
        await client.send(
          new sdk.CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
      } catch (error) {
        // The domain checks these first from ListParts; S3 has the last word.
        if (isNoSuchUpload(error)) throw notFound(uploadMessages.notFound);
        if (errorName(error) === 'EntityTooSmall') throw validationError(uploadMessages.partTooSmall);
        if (errorName(error) === 'InvalidPart') throw validationError(uploadMessages.partMissing);
        if (errorName(error) === 'InvalidPartOrder') throw validationError(uploadMessages.partsOrder);
        throw error;
      }
    },
    async abort(key, uploadId) {
      const { sdk, client } = await s3();
      try {
        await client.send(
          new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }),
        );
        return true;
      } catch (error) {
        if (isNoSuchUpload(error)) return false;
        throw error;
      }
    },
  };
}
