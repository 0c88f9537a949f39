import { useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

/** Paying for `chosenName` would end the plan the site granted: what ends, in the server's or the page's words. */
export interface GrantEndsQuestion {
  grantedPlanName: string;
  chosenName: string;
  message: string;
}

export interface GrantEndsDialogProps {
  question: GrantEndsQuestion | null;
  onKeep: () => void;
  onPay: () => void;
}

/**
 * Asks before Checkout whether to end a plan the site granted: a confirmation
 * (Radix Alert Dialog) that says what ends, with keeping the plan focused
 * first, so Enter or Escape leaves everything as it is.
 */
export function GrantEndsDialog({ question, onKeep, onPay }: GrantEndsDialogProps) {
  const keep = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={question !== null}
      onClose={onKeep}
      role="alertdialog"
      title={question ? `End your ${question.grantedPlanName} plan?` : ''}
      description={question?.message}
      initialFocus={keep}
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button ref={keep} variant="outline" onClick={onKeep}>
          Keep {question?.grantedPlanName}
        </Button>
        <Button onClick={onPay}>Pay for {question?.chosenName}</Button>
      </div>
    </Dialog>
  );
}
