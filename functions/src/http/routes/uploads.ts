import {
  completeMultipartSchema,
  createMultipartSchema,
  multipartKeyQuerySchema,
  normalizePathSchema,
  reserveUploadSchema,
  uploadMessages,
} from '@tunesmith/shared/uploads';
import type { RateLimiter } from '../../domain/accounts/ports';
import type { User } from '../../domain/accounts/user';
import { notFound } from '../../domain/errors';
import {
  abortUpload,
  completeUpload,
  listUploadParts,
  type MultipartStore,
  signUploadPart,
  startMultipartUpload,
} from '../../domain/uploads/multipart';
import {
  acceptUpload,
  allowUploadReservation,
  keptUploadKey,
  newUploadKey,
  objectPathOf,
  type UploadStore,
} from '../../domain/uploads/uploads';
import type { GroupHandlers } from '../group-handler';
import { readJson, readQuery } from '../request';
import { json } from '../responses';

export interface UploadRouteDeps {
  /** The uploads bucket, for the check after an upload lands. */
  store: UploadStore;
  /**
   * A short-lived PUT link for a key of the uploads bucket; the upload must
   * send `contentType` when given, and exactly `size` bytes when given.
   */
  uploadLink(key: string, options: { contentType?: string; size?: number }): Promise<string>;
  /** The uploads-bucket key an upload link points at, or undefined for any other URL. */
  keyOfUploadUrl(url: string): string | undefined;
  newId: () => string;
  limiter: RateLimiter;
  /** Multipart uploads into the uploads bucket (files the dialog sends in parts). */
  multipart: MultipartStore;
}

/**
 * Audio uploads go from the browser straight to storage: the API hands out a
 * link into the user's own prefix, then checks what landed before anything
 * may use it. A file the browser described is refused up front when its type
 * or size is wrong; every file is checked again after upload, because a
 * browser's description proves nothing.
 */
export function uploadRoutes(deps: UploadRouteDeps): GroupHandlers {
  return {
    reserveUpload: async (event, ctx) => {
      const user = ctx.user as User;
      const { filename, contentType, size } = readJson(event, reserveUploadSchema);
      await allowUploadReservation(deps.limiter, user.id);
      const key = newUploadKey(user.id, deps.newId(), filename);
      const uploadURL = await deps.uploadLink(key, {
        ...(contentType ? { contentType } : {}),
        ...(size ? { size } : {}),
      });
      // The path the file will have once normalize-path has checked it.
      return json(200, { uploadURL, objectPath: objectPathOf(keptUploadKey(key)) });
    },

    normalizeUploadPath: async (event, ctx) => {
      const user = ctx.user as User;
      const { uploadURL } = readJson(event, normalizePathSchema);
      const key = deps.keyOfUploadUrl(uploadURL);
      // Another bucket, another user's prefix and a malformed URL all look the same: not found.
      if (!key) throw notFound(uploadMessages.notFound);
      const { key: kept } = await acceptUpload(deps.store, user.id, key);
      return json(200, { objectPath: objectPathOf(kept) });
    },

    createMultipartUpload: async (event, ctx) => {
      const user = ctx.user as User;
      const { filename, type } = readJson(event, createMultipartSchema);
      const started = await startMultipartUpload(deps, user.id, { filename, ...(type ? { type } : {}) });
      return json(200, started);
    },

    signMultipartPart: async (event, ctx) => {
      const user = ctx.user as User;
      const signed = await signUploadPart(deps, user.id, {
        ...(event.queryStringParameters?.key ? { key: event.queryStringParameters.key } : {}),
        ...(ctx.params.uploadId ? { uploadId: ctx.params.uploadId } : {}),
        ...(ctx.params.partNumber ? { partNumber: ctx.params.partNumber } : {}),
        ...(event.queryStringParameters?.size ? { size: event.queryStringParameters.size } : {}),
      });
      return json(200, signed);
    },

    listMultipartParts: async (event, ctx) => {
      const user = ctx.user as User;
      const { key } = readQuery(event, multipartKeyQuerySchema);
      return json(200, await listUploadParts(deps, user.id, key, ctx.params.uploadId as string));
    },

    completeMultipartUpload: async (event, ctx) => {
      const user = ctx.user as User;
      const { key } = readQuery(event, multipartKeyQuerySchema);
      const { parts } = readJson(event, completeMultipartSchema);
      const done = await completeUpload(deps, user.id, key, ctx.params.uploadId as string, parts);
      return json(200, { location: done.objectPath, key: done.key, objectPath: done.objectPath });
    },

    abortMultipartUpload: async (event, ctx) => {
      const user = ctx.user as User;
      const { key } = readQuery(event, multipartKeyQuerySchema);
      await abortUpload(deps, user.id, key, ctx.params.uploadId as string);
      return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
    },
  };
}
