import { BPM_MAX, BPM_MIN, keyLabel, MUSICAL_KEYS } from '@tunesmith/shared/musical-keys';
import { fieldClasses, Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';

export interface TempoKeyFieldsProps {
  /** The form's `useId`: the fields are `{id}-bpm` and `{id}-key`. */
  id: string;
  /** The tempo as typed (empty: none asked). */
  bpm: string;
  onBpmChange: (bpm: string) => void;
  /** A key in the stored spelling ("A minor"), or empty for none. */
  musicalKey: string;
  onKeyChange: (key: string) => void;
}

/** Optional tempo (BPM) and key the track is asked to keep; empty leaves both to the model. */
export function TempoKeyFields({ id, bpm, onBpmChange, musicalKey, onKeyChange }: TempoKeyFieldsProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-bpm`}>Tempo in BPM (optional)</Label>
        <Input
          id={`${id}-bpm`}
          type="number"
          inputMode="numeric"
          min={BPM_MIN}
          max={BPM_MAX}
          step={1}
          value={bpm}
          placeholder="Any"
          aria-describedby={`${id}-bpm-hint`}
          onChange={(event) => onBpmChange(event.target.value)}
        />
        <p id={`${id}-bpm-hint`} className="text-xs text-zinc-400">
          A whole number from {BPM_MIN} to {BPM_MAX}.
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-key`}>Key (optional)</Label>
        <select
          id={`${id}-key`}
          value={musicalKey}
          onChange={(event) => onKeyChange(event.target.value)}
          className={cn(fieldClasses, 'h-10')}
        >
          <option value="">Any key</option>
          {MUSICAL_KEYS.map((key) => (
            <option key={key} value={key}>
              {keyLabel(key)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
