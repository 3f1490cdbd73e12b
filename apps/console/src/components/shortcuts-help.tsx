import { useState } from 'react';
import { Shortcut } from '@console/lib/alert-triage';
import { useShortcuts } from '@console/lib/use-shortcuts';
import { ConfirmDialog } from './confirm-dialog';

/**
 * The page's keyboard shortcuts: a "Keyboard shortcuts" button, and `?` anywhere but in a field,
 * open them in a dialog; `handlers` answer the keys (useShortcuts).
 */
export function ShortcutsHelp({ shortcuts, handlers }: { shortcuts: readonly Shortcut[]; handlers: Record<string, () => void> }) {
  const [open, setOpen] = useState(false);
  useShortcuts({ ...handlers, '?': () => setOpen(true) });
  return (
    <>
      <button type="button" className="link-button shortcuts-button" aria-keyshortcuts="?" onClick={() => setOpen(true)}>
        Keyboard shortcuts <kbd>?</kbd>
      </button>
      <ConfirmDialog open={open} title="Keyboard shortcuts" cancelLabel="Close" onCancel={() => setOpen(false)}>
        <dl className="shortcuts">
          {shortcuts.map((shortcut) => (
            <div key={shortcut.key}>
              <dt>
                <kbd>{shortcut.key}</kbd>
              </dt>
              <dd>{shortcut.does}</dd>
            </div>
          ))}
        </dl>
        <p className="hint">They do nothing while you type in a field.</p>
      </ConfirmDialog>
    </>
  );
}
