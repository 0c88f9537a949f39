import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface TabItem<T extends string> {
  value: T;
  label: string;
  content: ReactNode;
}

export interface TabsProps<T extends string> {
  /** Accessible name of the tab list. */
  label: string;
  items: readonly TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
  listClassName?: string;
  /**
   * Keeps every panel mounted (the others hidden), so work in a panel, such as
   * a running generation or a half-filled form, survives switching tabs.
   */
  keepMounted?: boolean;
}

/**
 * Tabs on Radix Tabs (the WAI-ARIA pattern): one tab stop for the list, arrow
 * keys (and Home/End) move between tabs and select them; only the selected
 * panel is rendered unless `keepMounted` is set.
 */
export function Tabs<T extends string>({
  label,
  items,
  value,
  onChange,
  className,
  listClassName,
  keepMounted = false,
}: TabsProps<T>) {
  return (
    <TabsPrimitive.Root
      value={value}
      onValueChange={(next) => onChange(next as T)}
      activationMode="automatic"
      className={className}
    >
      <TabsPrimitive.List
        aria-label={label}
        className={cn('grid auto-cols-fr grid-flow-col gap-1 rounded-xl bg-zinc-950/60 p-1', listClassName)}
      >
        {items.map((item) => (
          <TabsPrimitive.Trigger
            key={item.value}
            value={item.value}
            className={cn(
              'rounded-lg px-3 py-2 text-sm font-medium transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
              'text-zinc-300 hover:text-white',
              'data-[state=active]:bg-gradient-to-r data-[state=active]:from-violet-600 data-[state=active]:to-fuchsia-600 data-[state=active]:text-white data-[state=active]:shadow',
            )}
          >
            {item.label}
          </TabsPrimitive.Trigger>
        ))}
      </TabsPrimitive.List>
      {items.map((item) => (
        <TabsPrimitive.Content
          key={item.value}
          value={item.value}
          forceMount={keepMounted ? true : undefined}
          hidden={item.value !== value}
          className="mt-6"
        >
          {item.content}
        </TabsPrimitive.Content>
      ))}
    </TabsPrimitive.Root>
  );
}
