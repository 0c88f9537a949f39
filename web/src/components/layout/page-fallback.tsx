import { Spinner } from '@/components/ui/spinner';

/** Shown in place of a page while its code or data loads for the first time. */
export function PageFallback() {
  return (
    <div className="grid min-h-[50vh] place-items-center">
      <Spinner label="Loading page" className="[&>span:first-child]:size-8" />
    </div>
  );
}
