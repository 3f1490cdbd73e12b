import { ReactNode } from 'react';
import { Field } from '@console/components/field';

interface LocalTimeFieldProps {
  label: string;
  /** A local date and time of the schedule's zone (`datetime-local`), or a time of day (`time`). */
  type?: 'datetime-local' | 'time';
  value: string;
  error?: string;
  hint?: ReactNode;
  onChange(value: string): void;
}

/** A local time of a schedule's zone in a form (a handoff, an override's window, an active period), with its error and hint. */
export function LocalTimeField({ label, type = 'datetime-local', value, error, hint, onChange }: LocalTimeFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(id, { errorId, hintId }) => (
        <input
          id={id}
          type={type}
          value={value}
          aria-invalid={error !== undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
