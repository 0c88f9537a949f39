import type { LabelHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export interface LabelProps extends LabelHTMLAttributes<HTMLLabelElement> {
  htmlFor: string;
}

export function Label({ className, htmlFor, children, ...props }: LabelProps) {
  return (
    <label htmlFor={htmlFor} className={cn('text-sm font-medium text-zinc-200', className)} {...props}>
      {children}
    </label>
  );
}
