import type { TrackEvents } from '../workflow/steps';

/**
 * The workflow's track events (decision 053): recorded for the owner's
 * webhooks and their delivery started. The webhooks' code loads with the
 * first event, so a step that raises none does not load it.
 */
export function trackEventsFromEnv(log?: {
  warn(message: string, fields: Record<string, unknown>): void;
}): TrackEvents {
  return {
    async raise(type, generation) {
      const [{ raiseTrackEvent }, { webhookDeps }] = await Promise.all([
        import('../domain/developers/webhooks'),
        import('./webhook-deps'),
      ]);
      return raiseTrackEvent(webhookDeps(), type, generation, log);
    },
  };
}
