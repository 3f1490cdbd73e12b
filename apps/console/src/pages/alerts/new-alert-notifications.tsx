import { useEffect, useRef, useState } from 'react';

/** The user's choice, kept in this browser. */
const STORAGE_KEY = 'alert-console.notify-new-alerts';

const supported = () => typeof window !== 'undefined' && 'Notification' in window;

/** The choice as kept; off where the browser keeps no storage (private modes may refuse it). */
function storedChoice(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

function storeChoice(on: boolean): void {
  try {
    if (on) window.localStorage.setItem(STORAGE_KEY, 'on');
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Not kept: the choice lasts as long as the page.
  }
}

/**
 * "Notify me of new alerts": opt-in, permission asked only when the box is ticked. While it is on,
 * alerts that arrive while the browser tab is in the background (an iid above the newest known) are
 * announced by a browser notification.
 */
export function NewAlertNotifications({ iids, titles }: { iids: readonly number[]; titles: ReadonlyMap<number, string> }) {
  const [on, setOn] = useState(() => supported() && storedChoice() && Notification.permission === 'granted');
  const [refused, setRefused] = useState(false);
  const newestKnown = useRef<number | null>(null);
  const newest = iids.length > 0 ? Math.max(...iids) : null;
  useEffect(() => {
    const known = newestKnown.current;
    newestKnown.current = Math.max(known ?? 0, newest ?? 0);
    if (!on || known === null || newest === null || newest <= known || document.visibilityState === 'visible') return;
    const arrived = iids.filter((iid) => iid > known);
    new Notification(arrived.length === 1 ? 'New alert' : `${arrived.length} new alerts`, {
      body: arrived.map((iid) => `#${iid} ${titles.get(iid) ?? ''}`).join('\n'),
      tag: 'alert-console-new-alerts',
    });
  }, [newest, on, iids, titles]);
  if (!supported()) return null;
  const toggle = async (wanted: boolean) => {
    setRefused(false);
    if (!wanted) {
      storeChoice(false);
      setOn(false);
      return;
    }
    const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    if (permission !== 'granted') {
      setRefused(true);
      return;
    }
    storeChoice(true);
    setOn(true);
  };
  return (
    <label className="checkbox toolbar-checkbox">
      <input type="checkbox" checked={on} onChange={(event) => void toggle(event.target.checked)} /> Notify me of new alerts
      {refused && <span className="hint"> (the browser refused: allow notifications for this site)</span>}
    </label>
  );
}
