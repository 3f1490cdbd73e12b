import { ReactNode } from 'react';
import { Field } from './field';

interface EmailFieldProps {
  label: string;
  value: string;
  /** The field's error (its form's `errors.email`). */
  error?: string;
  hint: ReactNode;
  /** The new text; the form clears the field's error. */
  onChange(value: string): void;
  /** `email` where it is the user's own address, `off` where someone else's is typed. */
  autoComplete: 'email' | 'off';
}

/** An email address field (Profile, Admin's new user), checked by its form with emailProblem. */
export function EmailField({ label, value, error, hint, onChange, autoComplete }: EmailFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(id, { errorId, hintId }) => (
        <input
          id={id}
          type="email"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error !== undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
          autoComplete={autoComplete}
        />
      )}
    </Field>
  );
}
