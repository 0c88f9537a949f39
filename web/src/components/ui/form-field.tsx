import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Label } from './label';

export interface FormFieldProps {
  label: string;
  /** The id of the input the label names. */
  htmlFor: string;
  /** The message shown under the field; the input points at it with `aria-describedby`. */
  error?: string | undefined;
  errorId: string;
  /** Shown at the end of the label row, such as a Forgot Password? link. */
  labelAction?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A label, its input and the field's validation message underneath. */
export function FormField({
  label,
  htmlFor,
  error,
  errorId,
  labelAction,
  className,
  children,
}: FormFieldProps) {
  return (
    <div className={cn('grid gap-2', className)}>
      {labelAction ? (
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor={htmlFor}>{label}</Label>
          {labelAction}
        </div>
      ) : (
        <Label htmlFor={htmlFor}>{label}</Label>
      )}
      {children}
      {error ? (
        <p id={errorId} className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
