import { type InputHTMLAttributes, useState } from 'react';
import { cn } from '@/lib/cn';
import { Icon } from './icon';
import { Input } from './input';

export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  id: string;
  /** What the toggle reveals, for its accessible name: "Show {toggleLabel}" / "Hide {toggleLabel}". */
  toggleLabel?: string;
}

/** A password field with a button that shows or hides what was typed. */
export function PasswordInput({ toggleLabel = 'password', className, ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input {...props} type={visible ? 'text' : 'password'} className={cn('pr-11', className)} />
      <button
        type="button"
        aria-label={`${visible ? 'Hide' : 'Show'} ${toggleLabel}`}
        aria-controls={props.id}
        onClick={() => setVisible((v) => !v)}
        className="absolute inset-y-0 right-0 grid w-10 place-items-center rounded-r-lg text-zinc-400 hover:text-white focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-violet-300"
      >
        <Icon className="size-5" round>
          {visible ? (
            <>
              <path d="M3 3l18 18" />
              <path d="M10.6 5.1A10.9 10.9 0 0 1 12 5c6.5 0 10 7 10 7a17.6 17.6 0 0 1-3.2 4.2M6.6 6.6C3.9 8.4 2 12 2 12s3.5 7 10 7a10.7 10.7 0 0 0 5.4-1.4" />
              <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
            </>
          ) : (
            <>
              <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
              <circle cx="12" cy="12" r="3" />
            </>
          )}
        </Icon>
      </button>
    </div>
  );
}
