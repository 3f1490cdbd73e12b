import { useEffect, useRef, useState } from 'react';
import { ApiError } from '@console/api/client';
import { errorText } from './error-message';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** Where a form shows the API's refusals: by the field the API names (`ends_at`), else by the error's code. */
export interface ApiErrorFields<F extends string> {
  fields?: Partial<Record<string, F>>;
  codes?: Partial<Record<string, F>>;
}

/** The form field an API refusal belongs at, if any. */
export function fieldOfApiError<F extends string>(error: unknown, at: ApiErrorFields<F>): F | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return (error.field !== undefined ? at.fields?.[error.field] : undefined) ?? at.codes?.[error.code];
}

/**
 * The one form-error pattern of the console: each error is shown once, at its field (the control
 * says `aria-invalid` and names the error in `aria-describedby`, as `Field` lays it out), until that
 * field changes; showing errors moves the focus to the first control in error, in the order the
 * form shows them. The form element takes `formRef`; its controls need no refs of their own.
 */
export function useFormErrors<F extends string>() {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  // Counts the times errors were shown: each showing focuses the first control in error once rendered.
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [shown]);

  const show = (found: FieldErrors<F>) => {
    setErrors(found);
    if (Object.keys(found).length > 0) setShown((count) => count + 1);
  };
  return {
    formRef,
    errors,
    show,
    /** These fields changed: their errors no longer apply. */
    clear(...fields: F[]) {
      setErrors((current) => (fields.some((field) => field in current) ? Object.fromEntries(Object.entries(current).filter(([field]) => !fields.includes(field as F))) : current) as FieldErrors<F>);
    },
    clearAll() {
      setErrors({});
    },
    /**
     * Shows an API refusal at its field, in plain words after `title` ("Not saved: ..."); false when it
     * is about no field of this form (the caller shows it as the form's message).
     */
    showApiError(error: unknown, at: ApiErrorFields<F>, title?: string): boolean {
      const field = fieldOfApiError(error, at);
      if (field === undefined) return false;
      show({ [field]: errorText(error, title) } as FieldErrors<F>);
      return true;
    },
  };
}
