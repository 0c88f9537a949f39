// s3rver ships no types; this covers the part of its API the local cloud uses.
declare module 's3rver' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';
  import type { AddressInfo } from 'node:net';
  import type { Readable } from 'node:stream';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    vhostBuckets?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  /** An object as s3rver's controllers hand it to the store. */
  export interface S3rverObject {
    bucket: string;
    key: string;
    content: Buffer | Readable;
    metadata: Record<string, string>;
  }

  /** Its filesystem store (lib/stores/filesystem.js): where objects are written and hashed. */
  export interface S3rverStore {
    getResourcePath(bucket: string, key: string, resource: string): string;
    putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
    getMetadata(bucket: string, key: string): Promise<Record<string, string | number>>;
  }

  class S3rver {
    constructor(options: S3rverOptions);
    httpServer?: Server;
    store: S3rverStore;
    run(): Promise<AddressInfo>;
    /** Its request handler (s3rver is a Koa application). */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    close(): Promise<void>;
  }

  export default S3rver;
}
