import { ReactNode, useId } from 'react';
import { useErrorShown } from './error-shown';

interface FieldProps {
  label: ReactNode;
  /** Extra classes of the field's box (`field-grow`). */
  className?: string;
  /** A field's own error, under the control; the control names `errorId` in its `aria-describedby`. */
  error?: string;
  /** Under the control (and its error); the control names `hintId` in its `aria-describedby` when it should read it. */
  hint?: ReactNode;
  /** The control, given the id its label points at and the ids of the error and hint shown. */
  children(id: string, described: { errorId?: string; hintId?: string }): ReactNode;
}

/** A labelled form control in the form's column: label, control, its error, its hint. */
export function Field({ label, className, error, hint, children }: FieldProps) {
  const id = useId();
  useErrorShown(Boolean(error));
  const errorId = error ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children(id, { errorId, hintId })}
      {error && (
        <div className="field-error" id={errorId}>
          {error}
        </div>
      )}
      {hint && (
        <div className="hint" id={hintId}>
          {hint}
        </div>
      )}
    </div>
  );
}
