import type { Visibility } from '@tunesmith/shared/tracks';
import { ToggleGroup } from '@/components/ui/toggle-group';

const visibilityOptions = [
  { value: 'public', label: 'Public' },
  { value: 'private', label: 'Private' },
] as const;

/** Public (the default) or private, as a radio group named Visibility. */
export function VisibilityField({
  value,
  onChange,
}: {
  value: Visibility;
  onChange: (value: Visibility) => void;
}) {
  return (
    <div className="grid gap-2">
      <span aria-hidden="true" className="text-sm font-medium text-zinc-200">
        Visibility
      </span>
      <ToggleGroup
        label="Visibility"
        options={visibilityOptions}
        value={value}
        onChange={onChange}
        className="w-fit"
      />
    </div>
  );
}
