import { ReactNode, useId } from 'react';

/** A select's options: each of `values`, shown by its label. */
export function Options<Value extends string>({ values, label }: { values: readonly Value[]; label(value: NoInfer<Value>): ReactNode }) {
  return (
    <>
      {values.map((value) => {
        const text = label(value);
        // A long option (an incident's title) is cut to the select's width: its title holds it whole.
        return (
          <option key={value} value={value} title={typeof text === 'string' ? text : undefined}>
            {text}
          </option>
        );
      })}
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
  /** The select's class (its width in a toolbar); its title is always the chosen option's text, so a cut one is read whole on hover. */
  className?: string;
  onChange(value: NoInfer<Value>): void;
}

/** A select of `values` whose label only screen readers read. */
export function HiddenLabelSelect<Value extends string>({ label, values, optionLabel, value, disabled, className, onChange }: HiddenLabelSelectProps<Value>) {
  const id = useId();
  const chosen = optionLabel(value);
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select id={id} value={value} disabled={disabled} className={className} title={typeof chosen === 'string' ? chosen : undefined} onChange={(event) => onChange(event.target.value as Value)}>
        <Options values={values} label={optionLabel} />
      </select>
    </>
  );
}
