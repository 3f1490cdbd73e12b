import { UseMutationResult } from '@tanstack/react-query';
import { FormEvent, useId, useRef, useState } from 'react';
import { ErrorMessage } from './error-message';
import { Field } from './field';
import { ApiErrorFields, useFormErrors } from './form-errors';

/** The longest note the API takes, in characters. */
export const NOTE_MAX = 10_000;

const NOTE_ERRORS: ApiErrorFields<'body'> = { fields: { body: 'body' } };

/**
 * A note in Markdown (1 to 10,000 characters) for a timeline (an alert's or an incident's), with its
 * error beside the field; `add` writes it (the subject's note mutation, given the body).
 */
export function NoteForm<T>({ add }: { add: UseMutationResult<T, Error, string> }) {
  const [body, setBody] = useState('');
  const { formRef, errors, show, clear, showApiError } = useFormErrors<'body'>();
  const [failure, setFailure] = useState<unknown>(null);
  const titleId = useId();
  /** The button is disabled while the note is sent, which drops its focus: the field takes it back. */
  const bodyField = useRef<HTMLTextAreaElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (body.trim() === '') return show({ body: 'Write the note first: it cannot be empty.' });
    if (body.length > NOTE_MAX) return show({ body: `A note has at most ${NOTE_MAX.toLocaleString('en')} characters; this one has ${body.length.toLocaleString('en')}.` });
    add.mutate(body, {
      onSuccess: () => {
        setBody('');
        bodyField.current?.focus();
      },
      onError: (error) => {
        if (!showApiError(error, NOTE_ERRORS, 'Note not added')) setFailure(error);
      },
    });
  };

  return (
    <form className="note-form" onSubmit={submit} noValidate ref={formRef} aria-labelledby={titleId}>
      <h3 id={titleId}>Add a note</h3>
      <ErrorMessage error={failure} title="Note not added" />
      <Field label="Note" error={errors.body} hint="Markdown: **bold**, `code`, lists and links.">
        {(id, { errorId, hintId }) => (
          <textarea
            id={id}
            ref={bodyField}
            rows={4}
            value={body}
            aria-invalid={errors.body ? true : undefined}
            aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
            onChange={(event) => {
              setBody(event.target.value);
              clear('body');
            }}
          />
        )}
      </Field>
      <p className="actions">
        <button type="submit" className="button button-primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add note'}
        </button>
      </p>
    </form>
  );
}
