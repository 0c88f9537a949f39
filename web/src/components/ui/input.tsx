import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '@/lib/cn';

export const fieldClasses =
  'w-full rounded-lg border border-white/15 bg-zinc-950/60 px-3 py-2 text-sm text-white placeholder:text-zinc-500 ' +
  'focus-visible:border-violet-400 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-violet-400 ' +
  'aria-invalid:border-red-400 disabled:opacity-50';

export function Input({
  className,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input className={cn(fieldClasses, 'h-10', className)} {...props} />;
}
