import { ReactNode, useId } from 'react';

/** A select's options: each of `values`, shown by its label. */
export function Options<Value extends string>({ values, label }: { values: readonly Value[]; label(value: NoInfer<Value>): ReactNode }) {
  return (
    <>
      {values.map((value) => (
        <option key={value} value={value}>
          {label(value)}
        </option>
      ))}
    </>
  );
}

interface HiddenLabelSelectProps<Value extends string> {
  /** For screen readers only: where it stands (a table row, a toolbar) says what it is. */
  label: string;
  values: readonly Value[];
  optionLabel(value: NoInfer<Value>): ReactNode;
  value: NoInfer<Value>;
  disabled?: boolean;
  onChange(value: NoInfer<Value>): void;
}

/** A select of `values` whose label only screen readers read. */
export function HiddenLabelSelect<Value extends string>({ label, values, optionLabel, value, disabled, onChange }: HiddenLabelSelectProps<Value>) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select id={id} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value as Value)}>
        <Options values={values} label={optionLabel} />
      </select>
    </>
  );
}
