import { ApiError, messageOf } from '../api/client';

/** The API's own message (403 and 404 included), or why there was no answer. */
export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const status = error instanceof ApiError && error.status > 0 ? ` (${error.status})` : '';
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong>{title}: </strong>}
      {messageOf(error)}
      {status && <span className="muted">{status}</span>}
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
