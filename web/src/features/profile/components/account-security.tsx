import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';

/** Account security. Listing sessions is not built yet, and the button says so. */
export function AccountSecurity() {
  const hintId = useId();
  return (
    <Card>
      <CardHeader>
        <h2 className="text-xl font-semibold text-white">Account Security</h2>
        <p className="text-sm text-zinc-400">
          Changing your password signs you out everywhere except on this device.
        </p>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-3">
        <Button variant="outline" disabled aria-describedby={hintId}>
          View Sessions
        </Button>
        <p id={hintId} className="text-sm text-zinc-400">
          Session management is coming soon
        </p>
      </CardContent>
    </Card>
  );
}
