import { useId } from 'react';

/** A search box of a list, labelled for screen readers (its placeholder says what it searches). */
export function SearchField({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange(value: string): void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input id={id} type="search" placeholder={placeholder} value={value} onChange={(event) => onChange(event.target.value)} />
    </>
  );
}
