/**
 * The CloudFront Function on the audio behaviour (viewer response), shared by
 * the stack (infra/lib/web.ts) and the local cloud (local/src/audio-cdn.ts),
 * so the code that runs at the edge is the code the local tests run.
 *
 * A download link carries the file name in a signed query parameter; the
 * function turns it into `Content-Disposition: attachment` on the way out. S3
 * honours `response-content-disposition` only on its own presigned requests,
 * and the query string is no part of the cache key, so plays and downloads of
 * an object share one cached copy (decision 008).
 */
import { READ_LINK_SECONDS } from '../s3/links';

/** The query parameter of a download link that names the saved file. */
export const DOWNLOAD_PARAM = 'download';

/**
 * cloudfront-js-2.0 source. The name is decoded once (a literal `%` that is
 * not an escape is kept as it is) and written as a quoted ASCII name with the
 * UTF-8 name beside it, as `attachmentDisposition` in adapters/s3/links.ts
 * does. Links change every hour, so the browser may keep a response as long
 * as a link lives.
 */
export const audioViewerResponseCode = `function handler(event) {
  var response = event.response;
  var param = event.request.querystring['${DOWNLOAD_PARAM}'];
  if (param && param.value) {
    var name = param.value;
    try {
      name = decodeURIComponent(name);
    } catch (e) {}
    var ascii = name.replace(/[^\\x20-\\x7e]/g, '_').replace(/["\\\\]/g, '_');
    response.headers['content-disposition'] = {
      value: 'attachment; filename="' + ascii + '"; filename*=UTF-8\\'\\'' + encodeURIComponent(name),
    };
  }
  response.headers['cache-control'] = { value: 'private, max-age=${READ_LINK_SECONDS}' };
  return response;
}`;
