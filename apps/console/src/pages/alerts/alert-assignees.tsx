import { KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useAssigneeCandidates, useSetAlertAssignees } from '@console/api/alert-workflow';
import { Alert, AlertAssignee } from '@console/api/types';
import { useCurrentMessage } from '@console/components/current-message';
import { ErrorMessage } from '@console/components/error-message';
import { assigneesShown } from '@console/lib/alert-triage';

/** Usernames as the console shows them: `@alice, @bob`, or "Unassigned". */
export function assigneesText(assignees: readonly AlertAssignee[]): string {
  return assignees.length === 0 ? 'Unassigned' : assignees.map((assignee) => `@${assignee.username}`).join(', ');
}

/**
 * A row's assignees: the first three, then "+N" for the rest, every name in its tooltip (the
 * `title`, and the accessible name, so a screen reader hears them all).
 */
export function AssigneeNames({ assignees }: { assignees: readonly AlertAssignee[] }) {
  if (assignees.length === 0) return <span className="muted">Unassigned</span>;
  const { shown, more } = assigneesShown(assignees);
  const all = assigneesText(assignees);
  return (
    <span className="assignee-names" title={all}>
      {shown.map((assignee, index) => (
        <span key={assignee.id} className="assignee-name" title={`@${assignee.username}`}>
          @{assignee.username}
          {index < shown.length - 1 || more > 0 ? ', ' : ''}
        </span>
      ))}
      {more > 0 && (
        <span className="assignee-more" title={all} tabIndex={0} aria-label={`and ${more} more: ${all}`}>
          +{more}
        </span>
      )}
    </span>
  );
}

interface AlertAssigneesProps {
  projectId: number;
  alert: Alert;
  /** The caller may assign (developer+): otherwise the assignees are only shown. */
  canAssign: boolean;
}

/**
 * The alert's assignees, and for developers+ the choice among the project's candidates (developer+
 * members): tick, then "Save assignees" (nothing is saved on a tick); "Unassign all" clears them.
 */
export function AlertAssignees({ projectId, alert, canAssign }: AlertAssigneesProps) {
  const [editing, setEditing] = useState<number[] | null>(null);
  const candidates = useAssigneeCandidates(projectId, canAssign && editing !== null);
  const save = useSetAlertAssignees(projectId);
  const message = useCurrentMessage();
  const legendId = useId();
  // Opening the choice removes the button that had the focus: the choice takes it, and Escape or
  // Cancel gives it back to "Edit assignees".
  const editButton = useRef<HTMLButtonElement>(null);
  const choice = useRef<HTMLFieldSetElement>(null);
  const refocusEdit = useRef(false);
  const open = editing !== null;
  useEffect(() => {
    if (open) choice.current?.focus();
    else if (refocusEdit.current) editButton.current?.focus();
    refocusEdit.current = false;
  }, [open]);
  const cancel = () => {
    refocusEdit.current = true;
    setEditing(null);
  };
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    cancel();
  };

  const apply = (assigneeIds: number[]) => {
    message.clear();
    save.mutate(
      { iid: alert.iid, assigneeIds },
      {
        onSuccess: (saved) => {
          setEditing(null);
          message.success(saved.assignees.length === 0 ? `Alert #${saved.iid} is unassigned.` : `Alert #${saved.iid} is assigned to ${assigneesText(saved.assignees)}.`);
        },
        onError: (error) => message.error(error, 'Assignees not saved'),
      },
    );
  };
  const toggle = (id: number, on: boolean) => setEditing((current) => (on ? [...(current ?? []), id] : (current ?? []).filter((other) => other !== id)));

  return (
    <div className="assignees">
      <p className="assignees-current">{assigneesText(alert.assignees)}</p>
      {message.view}
      {canAssign && editing === null && (
        <p className="actions">
          <button type="button" className="button" ref={editButton} onClick={() => setEditing(alert.assignees.map((assignee) => assignee.id))}>
            Edit assignees
          </button>
          {alert.assignees.length > 0 && (
            <button type="button" className="button" disabled={save.isPending} onClick={() => apply([])}>
              Unassign all
            </button>
          )}
        </p>
      )}
      {canAssign && editing !== null && (
        <fieldset className="assignee-choice" aria-labelledby={legendId} ref={choice} tabIndex={-1} onKeyDown={cancelOnEscape}>
          <legend id={legendId}>Assign alert #{alert.iid} to</legend>
          <ErrorMessage error={candidates.error} title="Candidates" />
          {candidates.isPending && <p className="muted">Loading the project's developers…</p>}
          {candidates.data?.length === 0 && <p className="muted">No member with at least the Developer role can be assigned.</p>}
          {candidates.data?.map((candidate) => (
            <label key={candidate.id} className="checkbox">
              <input type="checkbox" checked={editing.includes(candidate.id)} onChange={(event) => toggle(candidate.id, event.target.checked)} /> @{candidate.username}{' '}
              <span className="muted">({candidate.access_level})</span>
            </label>
          ))}
          <p className="actions">
            <button type="button" className="button button-primary" disabled={save.isPending} onClick={() => apply(editing)}>
              Save assignees
            </button>
            <button type="button" className="button" onClick={cancel}>
              Cancel
            </button>
          </p>
        </fieldset>
      )}
    </div>
  );
}
