import { ReactNode, useEffect, useId, useState } from 'react';

/** Copies `value`; says so (or why not) in a live region next to the button. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 3_000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" className="button" onClick={copy} aria-label={label}>
        Copy
      </button>
      <span className="copy-status" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and press Ctrl+C' : ''}
      </span>
    </span>
  );
}

/** A labelled read-only value (a URL, a key, a secret) with its Copy button; `children` go below it. */
export function CopyableField({ label, value, copyLabel, children }: { label: string; value: string; copyLabel: string; children?: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-button">
        <input id={id} value={value} readOnly className="code" onFocus={(event) => event.target.select()} />
        <CopyButton value={value} label={copyLabel} />
      </div>
      {children}
    </div>
  );
}
