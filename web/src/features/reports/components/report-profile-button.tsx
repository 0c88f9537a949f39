import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ReportDialog } from './report-dialog';

export interface ReportProfileButtonProps {
  handle: string;
  /** The creator's display name, as the dialog names them. */
  displayName: string;
}

/** Report profile, for a creator's page seen by another signed-in user: opens the report dialog. */
export function ReportProfileButton({ handle, displayName }: ReportProfileButtonProps) {
  const [reporting, setReporting] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setReporting(true)}>
        Report profile
      </Button>
      {reporting ? (
        <ReportDialog
          subject={{ kind: 'profile', handle }}
          name={`${displayName} (@${handle})`}
          onClose={() => setReporting(false)}
        />
      ) : null}
    </>
  );
}
