import * as generationCalls from '@tunesmith/shared/calls/generation';
import type { TrackLicense } from '@tunesmith/shared/ownership';
import type { TrackAnalysis, TrackStatus } from '@tunesmith/shared/tracks';
import { apiRequest } from '@/lib/api-client';

/** `GET /api/generation/{id}/status`: `processing` is a synonym of `generating`. */
export interface GenerationStatus {
  status: TrackStatus | 'processing';
  audioUrl: string | null;
  duration: number | null;
  tags: string;
  type: string;
  /** The license the track was made with (null for tracks from before licenses). */
  license?: TrackLicense | null;
  /** Completed and playing, but its WAV download still being prepared: false (absent reads as ready). */
  downloadReady?: boolean;
  /** Tempo and key measured from the audio, once completed (null or absent before). */
  analysis?: TrackAnalysis | null;
}

/** One status check of a running generation (polled, never cached). */
export function getGenerationStatus(id: string, signal?: AbortSignal): Promise<GenerationStatus> {
  return apiRequest<GenerationStatus>(generationCalls.getGenerationStatus, { params: { id }, signal });
}
