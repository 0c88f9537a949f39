import { useId } from 'react';
import { fieldClasses, Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';
import { type LibraryFilters, statusFilters, typeFilters, visibilityFilters } from '../utils/filter-tracks';

const statusLabels: Record<LibraryFilters['status'], string> = {
  all: 'All statuses',
  completed: 'Completed',
  generating: 'Generating',
  pending: 'Pending',
  failed: 'Failed',
};
const typeLabels: Record<LibraryFilters['type'], string> = {
  all: 'All types',
  'text-to-music': 'Text to Music',
  'audio-to-music': 'Audio to Music',
};
const visibilityLabels: Record<LibraryFilters['visibility'], string> = {
  all: 'All',
  public: 'Public',
  private: 'Private',
};

function Select<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
        className={cn(fieldClasses, 'h-10')}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Search on title or tags, and the status, type and visibility filters. */
export function LibraryFiltersBar({
  filters,
  onChange,
}: {
  filters: LibraryFilters;
  onChange: (filters: LibraryFilters) => void;
}) {
  const searchId = useId();
  const set = <K extends keyof LibraryFilters>(key: K, value: LibraryFilters[K]) =>
    onChange({ ...filters, [key]: value });
  return (
    <search
      aria-label="Search and filter tracks"
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr]"
    >
      <div className="grid gap-1.5">
        <Label htmlFor={searchId}>Search tracks</Label>
        <Input
          id={searchId}
          type="search"
          value={filters.search}
          placeholder="Search by title or tags..."
          onChange={(event) => set('search', event.target.value)}
        />
      </div>
      <Select
        label="Status"
        value={filters.status}
        options={statusFilters}
        labels={statusLabels}
        onChange={(value) => set('status', value)}
      />
      <Select
        label="Type"
        value={filters.type}
        options={typeFilters}
        labels={typeLabels}
        onChange={(value) => set('type', value)}
      />
      <Select
        label="Visibility"
        value={filters.visibility}
        options={visibilityFilters}
        labels={visibilityLabels}
        onChange={(value) => set('visibility', value)}
      />
    </search>
  );
}
