import { DURATION_MAX_SECONDS, DURATION_MIN_SECONDS } from '@tunesmith/shared/constants';
import { Label } from '@/components/ui/label';
import { formatTime } from '@/lib/format';

export interface DurationSliderProps {
  id: string;
  value: number;
  onChange: (seconds: number) => void;
  /** The chosen model's range (default: 5 to 240 seconds). */
  min?: number;
  max?: number;
}

/** The track length in whole seconds within the model's range, shown as m:ss and seconds. */
export function DurationSlider({
  id,
  value,
  onChange,
  min = DURATION_MIN_SECONDS,
  max = DURATION_MAX_SECONDS,
}: DurationSliderProps) {
  const shown = `${formatTime(value)} (${value} seconds)`;
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>Duration</Label>
        <output htmlFor={id} className="text-sm text-zinc-300">
          {shown}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={1}
        value={value}
        aria-valuetext={shown}
        onChange={(event) => onChange(Number(event.target.value))}
        className="w-full accent-fuchsia-500"
      />
      <div className="flex justify-between text-xs text-zinc-400" aria-hidden="true">
        <span>{formatTime(min)}</span>
        <span>{formatTime(max)}</span>
      </div>
    </div>
  );
}
