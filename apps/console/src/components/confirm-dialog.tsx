import { ReactNode, useEffect, useId, useRef } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** None: the dialog only informs, and its one button (`cancelLabel`) closes it. */
  confirmLabel?: string;
  cancelLabel?: string;
  /** Destructive actions get a red button. */
  danger?: boolean;
  busy?: boolean;
  onConfirm?(): void;
  onCancel(): void;
}

/** A modal confirmation (or, without `confirmLabel`, a notice) on the native <dialog>: focus stays inside, Escape cancels. */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Cancel', danger, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="actions">
        <button type="button" className="button" onClick={onCancel} autoFocus>
          {cancelLabel}
        </button>
        {confirmLabel && (
          <button type="button" className={danger ? 'button button-danger' : 'button button-primary'} onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        )}
      </div>
    </dialog>
  );
}
