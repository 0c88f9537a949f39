// s3rver ships no types; this covers the part of its API the local cloud uses.
declare module 's3rver' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    vhostBuckets?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  class S3rver {
    constructor(options: S3rverOptions);
    httpServer?: Server;
    run(): Promise<AddressInfo>;
    /** Its request handler (s3rver is a Koa application). */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    close(): Promise<void>;
  }

  export default S3rver;
}
