import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
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
 * Tabs per the WAI-ARIA pattern: one tab stop for the list, arrow keys (and
 * Home/End) move between tabs and select them; only the selected panel is
 * rendered unless `keepMounted` is set.
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
  const id = useId();
  const tabRefs = useRef(new Map<T, HTMLButtonElement>());
  const tabId = (v: T) => `${id}-tab-${v}`;
  const panelId = (v: T) => `${id}-panel-${v}`;
  const selected = items.find((item) => item.value === value) ?? items[0];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.value === value);
    let next: number | undefined;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (index + 1) % items.length;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp')
      next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    const item = next === undefined ? undefined : items[next];
    if (!item) return;
    event.preventDefault();
    onChange(item.value);
    tabRefs.current.get(item.value)?.focus();
  };

  return (
    <div className={className}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className={cn('grid auto-cols-fr grid-flow-col gap-1 rounded-xl bg-zinc-950/60 p-1', listClassName)}
      >
        {items.map((item) => {
          const active = item.value === selected?.value;
          return (
            <button
              key={item.value}
              ref={(element) => {
                if (element) tabRefs.current.set(item.value, element);
                else tabRefs.current.delete(item.value);
              }}
              type="button"
              role="tab"
              id={tabId(item.value)}
              aria-selected={active}
              aria-controls={panelId(item.value)}
              tabIndex={active ? 0 : -1}
              onClick={() => onChange(item.value)}
              className={cn(
                'rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
                active
                  ? 'bg-gradient-to-r from-violet-600 to-fuchsia-600 text-white shadow'
                  : 'text-zinc-300 hover:text-white',
              )}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) =>
        item.value === selected?.value || keepMounted ? (
          <div
            key={item.value}
            role="tabpanel"
            id={panelId(item.value)}
            aria-labelledby={tabId(item.value)}
            hidden={item.value !== selected?.value}
            className="mt-6"
          >
            {item.content}
          </div>
        ) : null,
      )}
    </div>
  );
}
