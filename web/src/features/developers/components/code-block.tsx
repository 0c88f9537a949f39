import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ScrollRegion } from '@/components/ui/scroll-region';

/**
 * A labelled block of code: its caption names it (and the copy button), and
 * the block is a named region that takes focus, so a keyboard can scroll long lines.
 */
export function CodeBlock({ label, code }: { label: string; code: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <figure className="my-4 overflow-hidden rounded-xl border border-white/10 bg-zinc-950">
      <figcaption className="flex items-center justify-between gap-4 border-b border-white/10 px-4 py-2 text-sm text-zinc-300">
        <span>{label}</span>
        <Button variant="ghost" size="sm" onClick={copy} aria-label={`Copy ${label}`}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </figcaption>
      <ScrollRegion label={label} className="rounded-none">
        <pre className="p-4 text-sm leading-relaxed text-zinc-100">
          <code>{code}</code>
        </pre>
      </ScrollRegion>
    </figure>
  );
}
