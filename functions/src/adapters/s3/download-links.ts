/**
 * The link that saves a finished track's stored audio under a file name, on
 * its own: a caller that only links (the developer API) carries no deletes.
 */
import { parseS3Url, type ReadLinks } from './links';

/** A GET link that makes the browser save the audio as `filename`; audio not stored by us passes through. */
export type DownloadLink = (stored: string, filename: string) => Promise<string>;

export function s3DownloadLinks(links: ReadLinks, tracksBucket: string): DownloadLink {
  return async (stored, filename) => {
    const location = parseS3Url(stored);
    return location?.bucket === tracksBucket ? links.read(location, { downloadAs: filename }) : stored;
  };
}
