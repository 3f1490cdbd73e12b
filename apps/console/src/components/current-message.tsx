import { ReactNode, useEffect, useRef, useState } from 'react';
import { ErrorMessage } from './error-message';

type Message = { kind: 'success'; text: ReactNode } | { kind: 'error'; error: unknown; title?: string };

/**
 * One current message per screen, success or error: a new one replaces the last instead of piling
 * up. When it appears and the focus has dropped to nothing (its button was disabled while the
 * request ran, or went away), the focus moves to it, so a keyboard or screen reader user is where
 * the news is; focus on a control is kept.
 */
export function useCurrentMessage() {
  const [message, setMessage] = useState<(Message & { shown: number }) | null>(null);
  const ref = useRef<HTMLDivElement>(null);
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
