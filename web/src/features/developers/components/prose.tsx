/** Text as the API document writes it: `backticks` mark code. */
export function Prose({
  text,
  className,
  as: Tag = 'p',
}: {
  text: string | undefined;
  className?: string;
  /** A span inside a sentence of its own. */
  as?: 'p' | 'span';
}) {
  if (!text) return null;
  return (
    <Tag className={className}>
      {text.split(/`([^`]+)`/).map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence, never reordered
          <code key={index} className="rounded bg-white/10 px-1 py-0.5 font-mono text-[0.9em] text-zinc-100">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </Tag>
  );
}
