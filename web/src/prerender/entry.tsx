/**
 * The visitor's first frame of a page, rendered to HTML at build time
 * (web/build/prerender.ts) so the page paints before its JavaScript runs.
 * It is the app itself, at `pathname`, for a visitor, with the site's
 * default settings; a part that needs data from the API shows its loading
 * state, marked for the app to render afresh (use-page-data.ts); the rest the
 * app hydrates.
 */

import { PassThrough } from 'node:stream';
import { TRACK_FRAME_TOKENS } from '@tunesmith/shared/pages';
import { defaultPublicSite } from '@tunesmith/shared/public-site';
import { formatDate, formatTime, trackDurationText } from '@tunesmith/shared/track-text';
import type { Track } from '@tunesmith/shared/tracks';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { UNSAFE_createMemoryHistory } from 'react-router';
import { AppProvider } from '@/app/provider';
import { AppPages } from '@/app/router';
import type { AppHistory } from '@/app/transition-router';
import { userQueryKey } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { trackQueryKey } from '@/lib/query-keys';
import { siteQueryKey } from '@/lib/site';
import { FRAME_DIGEST, FrameContext, FrameWaitsForData } from '@/lib/use-page-data';

async function render(node: ReactNode): Promise<string> {
  const failures: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(<FrameContext value={true}>{node}</FrameContext>, {
    // Every boundary inline, complete: the frame must not need a script to show.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    // A part that waits for data shows its loading state; the app renders it (use-page-data.ts).
    // Any other error fails the build.
    onError: (error) => {
      if (error instanceof FrameWaitsForData) return FRAME_DIGEST;
      failures.push(error);
    },
  });
  if (failures.length > 0) throw failures[0];
  const chunks: Buffer[] = [];
  for await (const chunk of prelude.pipe(new PassThrough())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The app at `pathname` for a visitor, with `data` already in its query cache. */
function renderApp(pathname: string, data: [readonly unknown[], unknown][] = []): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(userQueryKey, null);
  queryClient.setQueryData(siteQueryKey, defaultPublicSite);
  for (const [key, value] of data) queryClient.setQueryData(key, value);
  const history = UNSAFE_createMemoryHistory({
    initialEntries: [pathname],
    v5Compat: true,
  }) as unknown as AppHistory;
  return render(
    <AppProvider queryClient={queryClient}>
      <AppPages history={history} />
    </AppProvider>,
  );
}

export function renderFrame(pathname: string): Promise<string> {
  return renderApp(pathname);
}

/** The stand-in's duration and creation date: values the page writes in ways no other part of it does. */
const STAND_IN_DURATION = 5999;
const STAND_IN_CREATED = '2001-02-03T12:00:00.000Z';
const STAND_IN_AUDIO = '%%TRACK_AUDIO%%';
/**
 * The stand-in has peaks, as every track finished since they exist: its player is the waveform's
 * box, at the height the live page draws the waveform in, with the slider in it until then.
 */
const STAND_IN_PEAKS = '%%TRACK_PEAKS%%';

/**
 * The track a visitor's share document shows, as the track page renders it:
 * a finished public track whose text values are the template's tokens.
 * Family and provenance are left to the app (the frame shows none, and
 * "About this track" as loading).
 */
const standIn: Track = {
  id: TRACK_FRAME_TOKENS.id,
  title: TRACK_FRAME_TOKENS.title,
  tags: TRACK_FRAME_TOKENS.tags,
  lyrics: TRACK_FRAME_TOKENS.lyrics,
  duration: STAND_IN_DURATION,
  status: 'completed',
  type: TRACK_FRAME_TOKENS.type,
  visibility: 'public',
  showInGallery: true,
  audioUrl: STAND_IN_AUDIO,
  createdAt: STAND_IN_CREATED,
  instrumental: false,
  parentId: null,
  edit: null,
  peaksUrl: STAND_IN_PEAKS,
  loudness: null,
  license: null,
  downloadReady: true,
  likes: 0,
  plays: 0,
  remixable: false,
  creator: null,
  remixOf: null,
  analysis: null,
  family: { parent: null, children: [] },
};

/** What the template build (web/build/prerender.ts `trackTemplate`) turns into tokens or leaves out. */
export interface TrackFrame {
  frame: string;
  /** Text the page formats from the stand-in, each to become its token. */
  formatted: { duration: string; time: string };
  /** The stand-in's creation date as the page writes it: a token in the template (filled in UTC). */
  created: string;
  /** The stand-in's audio link: a document has no playable link (the app's player fetches one). */
  audio: string;
  /** The seek bar's maximum from the stand-in's duration, left out (the frame's bar is disabled, at 0). */
  seekMax: string;
}

/**
 * The track page's frame as a visitor sees it, from the stand-in track,
 * with what the template build must replace (decision 026).
 */
export async function renderTrackFrame(): Promise<TrackFrame> {
  const frame = await renderApp(`/track/${encodeURIComponent(TRACK_FRAME_TOKENS.id)}`, [
    [trackQueryKey(TRACK_FRAME_TOKENS.id), standIn],
  ]);
  return {
    frame,
    formatted: { duration: trackDurationText(STAND_IN_DURATION), time: formatTime(STAND_IN_DURATION) },
    created: formatDate(STAND_IN_CREATED),
    audio: STAND_IN_AUDIO,
    seekMax: String(Math.ceil(STAND_IN_DURATION)),
  };
}
