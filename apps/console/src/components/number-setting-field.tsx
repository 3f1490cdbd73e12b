import { useId } from 'react';

/** A number setting as typed: empty is null (off, or a default), else the number; or why it is refused. */
export type NumberSettingCheck = { ok: true; value: number | null } | { ok: false; message: string };

/** The props a particular number setting leaves to its form. */
export type NumberSettingProps = { value: string; onChange(value: string): void; error?: string | null };

/**
 * A short numeric setting checked while typing: its hint says what the value does, or why it is
 * refused. `error` is a refusal of the API, shown in place of the hint until the value changes.
 */
export function NumberSettingField({
  label,
  placeholder,
  value,
  onChange,
  error,
  check: checkText,
  hint,
}: NumberSettingProps & {
  label: string;
  placeholder: string;
  check(text: string): NumberSettingCheck;
  /** The hint for an accepted value. */
  hint(value: number | null): string;
}) {
  const id = useId();
  const check = checkText(value);
  const invalid = Boolean(error) || !check.ok;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input-short"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        aria-invalid={invalid}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <div id={`${id}-hint`} className={invalid ? 'hint invalid' : 'hint'} aria-live="polite">
        {error ? error : check.ok ? hint(check.value) : check.message}
      </div>
    </div>
  );
}
