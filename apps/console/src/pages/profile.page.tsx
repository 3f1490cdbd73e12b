import { FormEvent, useId, useState } from 'react';
import { useCurrentUser, useSetOwnEmail } from '@console/api/notifications';
import { useCurrentMessage } from '@console/components/current-message';
import { ErrorMessage, ErrorNotice, Loading } from '@console/components/error-message';
import { EmailField } from '@console/components/email-field';
import { useFormErrors } from '@console/components/form-errors';
import { emailProblem } from '@console/lib/email';
import { usePageTitle } from '@console/lib/use-page-title';
import { useSession } from '@console/session/session';
import { onDemand } from './oncall/oncall-pages';

/** How escalation policies page the user: a chunk of its own, as the on-call screens are. */
const PagingSettings = onDemand(() => import('./profile/paging-settings').then((module) => module.PagingSettings));

/** The signed-in user's profile: their email address, where alert emails go, and how escalation policies page them. */
export function ProfilePage() {
  const { user } = useSession();
  usePageTitle('Profile');
  if (user?.is_admin) {
    return (
      <section className="page">
        <h1>Profile</h1>
        <ErrorNotice>The administrator token belongs to no user, so it has no email address. Set users' addresses on their accounts.</ErrorNotice>
      </section>
    );
  }
  return (
    <section className="page">
      <h1>Profile</h1>
      <EmailForm />
      <PagingSettings />
    </section>
  );
}

function EmailForm() {
  const current = useCurrentUser();
  if (current.isPending) return <Loading what="your profile" />;
  if (current.error) return <ErrorMessage error={current.error} />;
  return <EmailFormFields username={current.data.username} stored={current.data.email ?? null} />;
}

/** The form, starting from the stored address. */
function EmailFormFields({ username, stored }: { username: string; stored: string | null }) {
  const setEmail = useSetOwnEmail();
  const [email, setEmailText] = useState(stored ?? '');
  const titleId = useId();
  const message = useCurrentMessage();
  const { formRef, errors, show, clear, clearAll, showApiError } = useFormErrors<'email'>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (setEmail.isPending) return;
    const problem = emailProblem(email);
    if (problem) return show({ email: problem });
    clearAll();
    const value = email.trim() === '' ? null : email.trim();
    setEmail.mutate(value, {
      onSuccess: (user) => message.success(user.email ? `Saved: alert emails go to ${user.email}.` : 'Saved: you have no email address, so you get no alert emails.'),
      onError: (error) => {
        if (!showApiError(error, { fields: { email: 'email' } }, 'Not saved')) message.error(error, 'Not saved');
      },
    });
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby={titleId} noValidate ref={formRef}>
      <h2 id={titleId}>Email</h2>
      <p className="muted">
        Signed in as <strong>{username}</strong>. As an owner or maintainer of a project that sends alert emails, you get an
        email when an alert is created or resolved there.
      </p>
      {message.view}
      <EmailField
        label="Email address"
        value={email}
        error={errors.email}
        hint="Leave empty to get no alert emails."
        onChange={(value) => {
          setEmailText(value);
          clear('email');
        }}
        autoComplete="email"
      />
      <button type="submit" className="button button-primary" aria-disabled={setEmail.isPending}>
        Save
      </button>
    </form>
  );
}
