import { useEffect } from 'react';

/** The event an error sends as it is shown, so the screen's current message can step aside (useCurrentMessage). */
export const ERROR_SHOWN_EVENT = 'console:error-shown';

/** Says on `window` that an error is shown, each time `shown` becomes true. */
export function useErrorShown(shown: boolean): void {
  useEffect(() => {
    if (shown) window.dispatchEvent(new Event(ERROR_SHOWN_EVENT));
  }, [shown]);
}
