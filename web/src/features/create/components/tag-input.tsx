import { TAGS_MAX_LENGTH } from '@tunesmith/shared/generations';
import { POPULAR_TAGS } from '@tunesmith/shared/popular-tags';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';

/** The tags in a comma-separated entry, trimmed, without empty items. */
export function parseTags(value: string): string[] {
  return value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** The entry with `tag` appended, unless the list already holds it (ignoring case). */
export function addTag(value: string, tag: string): string {
  const tags = parseTags(value);
  if (tags.some((existing) => existing.toLowerCase() === tag.toLowerCase())) return value;
  return [...tags, tag].join(', ');
}

export interface TagInputProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
}

/** Genre tags as a comma-separated entry, with the popular tags as chips that add themselves once. */
export function TagInput({ id, value, onChange }: TagInputProps) {
  const current = new Set(parseTags(value).map((tag) => tag.toLowerCase()));
  const hintId = `${id}-hint`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Genre Tags</Label>
      <Input
        id={id}
        value={value}
        maxLength={TAGS_MAX_LENGTH}
        placeholder="e.g. pop, upbeat, female singer"
        aria-describedby={hintId}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={hintId} className="text-xs text-zinc-400">
        Separate tags with commas, or pick popular ones below.
      </p>
      <ul aria-label="Popular tags" className="flex flex-wrap gap-2">
        {POPULAR_TAGS.map((tag) => {
          const added = current.has(tag.toLowerCase());
          return (
            <li key={tag}>
              <button
                type="button"
                aria-pressed={added}
                onClick={() => onChange(addTag(value, tag))}
                className={cn(
                  'rounded-full border px-3 py-1 text-xs font-medium transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
                  added
                    ? 'border-fuchsia-400/60 bg-fuchsia-500/20 text-fuchsia-100'
                    : 'border-white/15 bg-white/5 text-zinc-200 hover:bg-white/10',
                )}
              >
                {tag}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
