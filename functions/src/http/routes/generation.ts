import type { GroupHandlers } from '../group-handler';

// biome-ignore lint/suspicious/noEmptyInterface: filled in with the generate calls
export interface GenerationRouteDeps {}

/** Starting generations (text, audio) and the lyrics helper. */
export function generationRoutes(_deps: GenerationRouteDeps): GroupHandlers {
  return {};
}
