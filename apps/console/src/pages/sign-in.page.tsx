import { FormEvent, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError, createApiClient, dataOf, messageOf } from '@console/api/client';
import { useFormErrors } from '@console/components/form-errors';
import { Field } from '@console/components/field';
import { usePageTitle } from '@console/lib/use-page-title';
import { useSession } from '@console/session/session';

export function SignInPage() {
  const { token: current, signIn, signedOutReason } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '/projects';
  const [token, setToken] = useState('');
  const { formRef, errors, show, clear } = useFormErrors<'token'>();
  const [busy, setBusy] = useState(false);
  usePageTitle('Sign in');

  if (current) return <Navigate to={from} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = token.trim();
    if (busy) return;
    if (!value) {
      show({ token: 'Enter a personal access token or the administrator token.' });
      return;
    }
    setBusy(true);
    try {
      const user = await dataOf(createApiClient(value).GET('/api/v4/user'));
      signIn(value, user);
      navigate(from, { replace: true });
    } catch (failure) {
      // The token is the one thing to fix: the error is said at it, which takes the focus.
      show({ token: failure instanceof ApiError && failure.status === 401 ? 'This token is not valid (unknown, revoked or expired). Check it and try again.' : messageOf(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="sign-in">
      <form className="card sign-in-card" onSubmit={submit} noValidate ref={formRef}>
        <h1>
          <img src="/favicon.svg" alt="" width="28" height="28" /> Alert ingestion
        </h1>
        <p className="muted">Sign in to configure alert integrations and work with alerts.</p>
        {signedOutReason && (
          <div className="notice notice-warning" role="status">
            {signedOutReason}
          </div>
        )}
        <Field
          label="Access token"
          error={errors.token}
          hint={
            <>
              A personal access token, or the administrator token (<code>ADMIN_TOKEN</code>). It is kept in this browser until you sign out, for all its tabs of the console.
            </>
          }
        >
          {(id, { errorId, hintId }) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              value={token}
              onChange={(event) => {
                setToken(event.target.value);
                clear('token');
              }}
              aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
              aria-invalid={errors.token !== undefined}
              autoFocus
            />
          )}
        </Field>
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">
          The <Link to="/deprecations">deprecation catalogue and pipeline checker</Link> need no sign-in.
        </p>
      </form>
    </main>
  );
}
