import { ReactNode } from 'react';

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
