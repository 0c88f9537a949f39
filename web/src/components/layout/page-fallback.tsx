import { Spinner } from '@/components/ui/spinner';

/**
 * Shown in place of a page while its code loads for the first time. A screen
 * tall, so the footer is out of view until the page arrives and never seen to
 * jump.
 */
export function PageFallback() {
  return (
    <div className="grid min-h-dvh place-items-center">
      <Spinner label="Loading page" className="[&>span:first-child]:size-8" />
    </div>
  );
}
