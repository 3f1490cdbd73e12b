import { useId } from 'react';
import { checkJsonText } from '../lib/json-text';

interface JsonFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** A sample payload must be a JSON object; a test payload may be an array too. */
  object?: boolean;
  /** An empty field is fine (no sample payload). */
  optional?: boolean;
  disabled?: boolean;
  hint?: React.ReactNode;
  rows?: number;
}

/** A JSON text area checked while typing (spec 2.1 and 4.2: valid JSON is required). */
export function JsonField({ label, value, onChange, object, optional, disabled, hint, rows = 10 }: JsonFieldProps) {
  const id = useId();
  const empty = value.trim() === '';
  const check = empty && optional ? null : checkJsonText(value, { object });
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <div className="hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      <textarea
        id={id}
        className="code"
        rows={rows}
        value={value}
        spellCheck={false}
        disabled={disabled}
        aria-invalid={check !== null && !check.ok}
        aria-describedby={`${id}-check${hint ? ` ${id}-hint` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <div id={`${id}-check`} className={check === null ? 'hint' : check.ok ? 'hint valid' : 'hint invalid'} aria-live="polite">
        {disabled ? '' : check === null ? 'No sample payload.' : check.ok ? 'Valid JSON.' : check.message}
      </div>
    </div>
  );
}
