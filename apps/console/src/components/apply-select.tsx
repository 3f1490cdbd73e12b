import { KeyboardEvent, useId, useState } from 'react';
import { ErrorMessage } from './error-message';
import { Options } from './options';

interface ApplySelectProps<Value extends string> {
  /** The select's label: shown when `showLabel`, else for screen readers only (a table column names it). */
  label: string;
  showLabel?: boolean;
  /** The group's accessible name ("Role change of maria"). */
  groupLabel: string;
  values: readonly Value[];
  optionLabel(value: NoInfer<Value>): string;
  /** The stored value; a new one (saved here, or read again) replaces the choice. */
  value: NoInfer<Value>;
  /** The apply button, and words only screen readers read after it (" of maria"). */
  applyLabel: string;
  applyHiddenSuffix?: string;
  pending: boolean;
  /** The last refusal, shown under the control, which it describes. */
  error: unknown;
  errorTitle: string;
  /** What the screen reader hears of the change (saving, saved); empty for nothing. */
  announcement?: string;
  /** Said beside the button when it is pressed with nothing new chosen (default: choose another value first). */
  chooseFirst?: string;
  /** Extra classes of the select, from the value chosen (the status colours). */
  selectClassName?(chosen: NoInfer<Value>): string;
  /** Something else is chosen: an earlier refusal no longer applies. */
  onChoose?(): void;
  /** Save `value`: only ever from the button or Enter, never from choosing. */
  onApply(value: NoInfer<Value>): void;
}

/**
 * The one control for a select that changes stored data (an alert's status, a member's role, a
 * project's tier): choose, then apply with the button or Enter. The arrow keys of a native select
 * change its value (and fire change events) as they move, so choosing never saves: a keyboard user
 * passes over the values freely. Nothing is disabled, so the focus stays where it was while saving
 * and after; the group is `aria-busy` while saving. A choice not applied yet looks so (dashed, "not
 * applied"), and after a refusal the select shows the stored value again.
 */
export function ApplySelect<Value extends string>(props: ApplySelectProps<Value>) {
  const { label, showLabel, groupLabel, values, optionLabel, value, applyLabel, applyHiddenSuffix, pending, error, errorTitle, announcement } = props;
  const id = useId();
  const errorId = `${id}-error`;
  // The value chosen but not saved yet; null: the stored value is shown.
  const [choice, setChoice] = useState<Value | null>(null);
  // The button was pressed with nothing new chosen: say what to do instead of doing nothing.
  const [hinted, setHinted] = useState(false);
  const [shownValue, setShownValue] = useState(value);
  if (shownValue !== value) {
    setShownValue(value);
    setChoice(null);
  }
  // A refusal puts the stored value back in the select (the caller reads it again from the server):
  // a value that was not applied never looks applied.
  const [shownError, setShownError] = useState(error);
  if (shownError !== error) {
    setShownError(error);
    if (error) setChoice(null);
  }
  const chosen = choice ?? value;
  const nothingToApply = chosen === value;

  const apply = () => {
    if (pending) return;
    setHinted(nothingToApply);
    if (!nothingToApply) props.onApply(chosen);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSelectElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    apply();
  };

  return (
    <div className="status-control apply-select" role="group" aria-label={groupLabel} aria-busy={pending}>
      <label htmlFor={id} className={showLabel ? 'inline-label' : 'visually-hidden'}>
        {label}
      </label>
      <select
        id={id}
        className={[props.selectClassName?.(chosen), nothingToApply ? '' : 'unapplied'].filter(Boolean).join(' ') || undefined}
        title={optionLabel(chosen)}
        value={chosen}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          setChoice(event.target.value as Value);
          setHinted(false);
          props.onChoose?.();
        }}
        onKeyDown={onKeyDown}
      >
        <Options values={values} label={optionLabel} />
      </select>
      <button type="button" className="button button-small" aria-disabled={pending || nothingToApply} onClick={apply}>
        {pending ? 'Saving…' : applyLabel}
        {applyHiddenSuffix && <span className="visually-hidden">{applyHiddenSuffix}</span>}
      </button>
      {!nothingToApply && !pending && (
        <span className="hint unapplied-hint" aria-hidden="true">
          not applied
        </span>
      )}
      <span role="status" className={hinted ? 'hint' : 'visually-hidden'}>
        {hinted ? (props.chooseFirst ?? `Choose another ${label.toLowerCase()} first.`) : announcement}
      </span>
      <ErrorMessage id={errorId} error={error} title={errorTitle} inline />
    </div>
  );
}

