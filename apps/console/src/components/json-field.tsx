import { ReactNode, useId } from 'react';
import { checkJsonText, JsonTextCheck } from '@console/lib/json-text';

interface JsonFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** What the text must be (default: any JSON); its message is shown under the field as the user types. */
  check?(text: string): JsonTextCheck;
  /** An empty field is fine (no sample payload). */
  optional?: boolean;
  disabled?: boolean;
  hint?: ReactNode;
  rows?: number;
  /**
   * An error the field's own check cannot know (a refusal by the API, "enter one first"): shown in
   * place of the check's message until the text changes, as the owner clears it then.
   */
  error?: string | null;
}

/**
 * A JSON text area checked while typing (spec 2.1 and 4.2: valid JSON is required). Its one
 * message line says whether the text is valid and, if not, where and why; the text area is
 * `aria-invalid` then, and described by that line.
 */
export function JsonField({ label, value, onChange, check = checkJsonText, optional, disabled, hint, rows = 10, error }: JsonFieldProps) {
  const id = useId();
  const empty = value.trim() === '';
  const result = empty && optional ? null : check(value);
  const invalid = Boolean(error) || (result !== null && !result.ok);
  const message = error ? error : disabled ? '' : result === null ? 'No sample payload.' : result.ok ? (result.valid ?? 'Valid JSON.') : result.message;
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
        aria-invalid={invalid}
        aria-describedby={`${id}-check${hint ? ` ${id}-hint` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <div id={`${id}-check`} className={invalid ? 'hint invalid' : result?.ok ? 'hint valid' : 'hint'} aria-live="polite">
        {message}
      </div>
    </div>
  );
}
