import { TOAST_LIMIT } from '@tunesmith/shared/constants';
import { useSyncExternalStore } from 'react';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface Toast extends ToastInput {
  id: number;
  variant: ToastVariant;
}

type Listener = () => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

/**
 * Shows a notification. The area holds {@link TOAST_LIMIT} toast at a time, so
 * a new one replaces the one on screen.
 */
export function toast(input: ToastInput): { id: number; dismiss: () => void } {
  const id = nextId++;
  emit([{ ...input, id, variant: input.variant ?? 'default' }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Removes one toast, or all of them when no id is given. */
export function dismissToast(id?: number): void {
  emit(id === undefined ? [] : toasts.filter((t) => t.id !== id));
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => toasts;

/** The toasts on screen, newest first. */
export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
