import { messages } from '@tunesmith/shared/messages';
import { toast } from '@/lib/toast';

/** The full share address of a track. */
export function trackShareUrl(id: string): string {
  return `${window.location.origin}/track/${encodeURIComponent(id)}`;
}

/** Copies a track's share link and says whether that worked (a failure uses the destructive style). */
export async function shareTrack(id: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(trackShareUrl(id));
    toast({ title: messages.share.copiedTitle, description: messages.share.copiedText });
  } catch {
    toast({
      title: messages.share.failedTitle,
      description: messages.share.failedText,
      variant: 'destructive',
    });
  }
}
