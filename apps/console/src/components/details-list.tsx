import { ReactNode } from 'react';

/** Labelled values (an alert's fields) as a description list. */
export function DetailsList({ fields, className }: { fields: ReadonlyArray<readonly [string, ReactNode]>; className: string }) {
  return (
    <dl className={className}>
      {fields.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A text value, or a muted "none" when there is none (null or empty). */
export function TextOrNone({ value }: { value: string | null }) {
  return value ? <>{value}</> : <span className="muted">none</span>;
}
