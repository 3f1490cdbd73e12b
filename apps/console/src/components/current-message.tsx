import { ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { ErrorMessage } from './error-message';
import { ERROR_SHOWN_EVENT } from './error-shown';

type Message = { kind: 'success'; text: ReactNode } | { kind: 'error'; error: unknown; title?: string };

/**
 * One current message per screen, success or error: a new one replaces the last instead of piling
 * up. When it appears and the focus has dropped to nothing (its button was disabled while the
 * request ran, or went away), the focus moves to it, so a keyboard or screen reader user is where
 * the news is; focus on a control is kept.
 *
 * A success belongs to the moment it was said: it goes when any error is shown on the screen after
 * it (a field's, a list's), so "Saved." never stands beside a refusal, and when the address
 * changes (another tab, another page), so it is not taken for news of the next view.
 */
export function useCurrentMessage() {
  const [message, setMessage] = useState<(Message & { shown: number }) | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const address = `${location.pathname}${location.search}`;
  const [shownAt, setShownAt] = useState(address);
  if (shownAt !== address) {
    setShownAt(address);
    setMessage(null);
  }
  const success = message?.kind === 'success';
  useEffect(() => {
    if (!success) return;
    const stepAside = () => setMessage((current) => (current?.kind === 'success' ? null : current));
    // Errors shown in the same render as the success (its own form's) came before it: listen from the next task.
    const start = window.setTimeout(() => window.addEventListener(ERROR_SHOWN_EVENT, stepAside));
    return () => {
      window.clearTimeout(start);
      window.removeEventListener(ERROR_SHOWN_EVENT, stepAside);
    };
  }, [success, message?.shown]);
  useEffect(() => {
    if (message === null) return;
    const focused = document.activeElement;
    if (focused === null || focused === document.body) ref.current?.focus();
  }, [message]);

  const show = (next: Message) => setMessage((current) => ({ ...next, shown: (current?.shown ?? 0) + 1 }));
  return {
    success(text: ReactNode) {
      show({ kind: 'success', text });
    },
    error(error: unknown, title?: string) {
      show({ kind: 'error', error, title });
    },
    clear() {
      setMessage(null);
    },
    /** The message, where the screen shows it. */
    view: message && (
      <div ref={ref} tabIndex={-1} className="current-message" key={message.shown}>
        {message.kind === 'success' ? (
          <div className="notice notice-success" role="status">
            {message.text}
          </div>
        ) : (
          <ErrorMessage error={message.error} title={message.title} />
        )}
      </div>
    ),
  };
}
