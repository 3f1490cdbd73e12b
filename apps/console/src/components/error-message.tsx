import { messageOf } from '@console/api/client';
import { useErrorShown } from './error-shown';

interface ErrorMessageProps {
  error: unknown;
  title?: string;
  /** For `aria-describedby` of the control the error belongs to. */
  id?: string;
  /** Under its control, without the notice box. */
  inline?: boolean;
}

/**
 * The API's own message (403 and 404 included), or why there was no answer, in plain words: no
 * status code. A message that starts with the title's own words ("The test alert failed: ...")
 * does not repeat them.
 */
export function ErrorMessage({ error, title, id, inline }: ErrorMessageProps) {
  if (!error) return null;
  return (
    <ErrorNotice id={id} inline={inline}>
      {title && <strong>{title}: </strong>}
      {title ? withoutTitle(messageOf(error), title) : messageOf(error)}
    </ErrorNotice>
  );
}

/** The error as ErrorMessage shows it, as one line of text (for a field's own message). */
export function errorText(error: unknown, title?: string): string {
  return title ? `${title}: ${withoutTitle(messageOf(error), title)}` : messageOf(error);
}

/** "The test alert failed: it timed out." under the title "Test alert failed" reads "It timed out." */
export function withoutTitle(message: string, title: string): string {
  const words = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const repeated = new RegExp(`^(the\\s+)?${words}\\s*[:.]\\s*`, 'i').exec(message);
  if (!repeated || repeated[0].length === message.length) return message;
  const rest = message.slice(repeated[0].length);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** A refusal the console itself found (a form's problem), or a page the caller may not use; `inline`: under its control. */
export function ErrorNotice({ children, id, inline }: { children: React.ReactNode; id?: string; inline?: boolean }) {
  useErrorShown(true);
  return (
    <div id={id} className={inline ? 'field-error' : 'notice notice-error'} role="alert">
      {children}
    </div>
  );
}

export function SuccessMessage({ children }: { children: React.ReactNode }) {
  return (
    <div className="notice notice-success" role="status">
      {children}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** A page that cannot be shown: its title, the error, and the way back. */
export function ErrorPage({ title, error, back }: { title: React.ReactNode; error: unknown; back: React.ReactNode }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <ErrorMessage error={error} />
      {back}
    </section>
  );
}
