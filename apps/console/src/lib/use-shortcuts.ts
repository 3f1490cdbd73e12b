import { useEffect, useRef } from 'react';
import { shortcutKey } from './alert-triage';

/**
 * Single-key shortcuts of a page (`handlers` by key), listened to on the document: never while
 * typing in a field (shortcutKey), with a modifier, or while a dialog is open.
 */
export function useShortcuts(handlers: Record<string, () => void>, enabled = true): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const key = shortcutKey(event);
      if (key === null || document.querySelector('dialog[open]')) return;
      const handler = current.current[key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
