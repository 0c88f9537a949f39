import * as SliderPrimitive from '@radix-ui/react-slider';

/**
 * How far the repainted section may stray from the original, 0 to 1 (Radix
 * Slider: arrow keys step by 0.05, Page Up and Down by 0.25, Home and End).
 */
export function VarianceSlider({
  value,
  onChange,
  labelId,
  describedBy,
}: {
  value: number;
  onChange: (value: number) => void;
  labelId: string;
  describedBy?: string;
}) {
  return (
    <SliderPrimitive.Root
      value={[value]}
      min={0}
      max={1}
      step={0.05}
      onValueChange={([next]) => onChange(next ?? value)}
      className="relative flex h-6 w-full touch-none items-center select-none"
    >
      <SliderPrimitive.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-zinc-700">
        <SliderPrimitive.Range className="absolute h-full bg-gradient-to-r from-violet-500 to-fuchsia-500" />
      </SliderPrimitive.Track>
      <SliderPrimitive.Thumb
        aria-labelledby={labelId}
        aria-describedby={describedBy}
        aria-valuetext={value.toFixed(2)}
        className="block size-5 rounded-full border-2 border-white bg-violet-600 shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300"
      />
    </SliderPrimitive.Root>
  );
}
