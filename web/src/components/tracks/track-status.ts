/** A track's status as the library reads it: `processing` (the provider's word) counts as generating. */
export function normalStatus(status: string): string {
  return status === 'processing' ? 'generating' : status;
}
