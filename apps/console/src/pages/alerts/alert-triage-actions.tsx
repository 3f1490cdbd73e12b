import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSetAlertAssignees } from '@console/api/alert-workflow';
import { queryKeys, useChangeAlertStatus } from '@console/api/queries';
import { Alert, AlertStatus } from '@console/api/types';
import { useCurrentMessage } from '@console/components/current-message';
import { actionApplies, TriageAction, TriageState, undoSteps, UndoStep } from '@console/lib/alert-triage';
import { useSession } from '@console/session/session';
import { STATUS_LABELS } from './alert-status-control';

/** How long a one-click action can be undone. */
export const UNDO_SECONDS = 10;

const DONE: Record<TriageAction, string> = { acknowledge: 'acknowledged', resolve: 'resolved', assign: 'assigned to you' };
const REFUSED: Record<TriageAction, string> = { acknowledge: 'Not acknowledged', resolve: 'Not resolved', assign: 'Not assigned' };
export const ACTION_LABELS: Record<TriageAction, string> = { acknowledge: 'Acknowledge', resolve: 'Resolve', assign: 'Assign to me' };

/** The part of an alert a one-click action changes. */
export const stateOf = (alert: Alert): TriageState => ({ status: alert.status, assigneeIds: alert.assignees.map((assignee) => assignee.id) });
const alertsText = (iids: readonly number[]) => (iids.length === 1 ? `Alert #${iids[0]}` : `${iids.length} alerts (${iids.map((iid) => `#${iid}`).join(', ')})`);

/**
 * One-click triage (Acknowledge, Resolve, Assign to me) of one alert or several, from a row, the
 * alert page, the bulk bar or a shortcut: each alert is changed by its own call, the screen's current
 * message says what was done with an Undo for UNDO_SECONDS (undoSteps: the status back, then the
 * assignees), and a refusal is said there while the lists are read again, so each row shows its
 * status as stored.
 */
export function useTriageActions(projectId: number, message: ReturnType<typeof useCurrentMessage>) {
  const me = useSession().user?.id ?? null;
  const changeStatus = useChangeAlertStatus(projectId);
  const setAssignees = useSetAlertAssignees(projectId);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const apply = async (iid: number, step: UndoStep): Promise<Alert> =>
    'status' in step ? changeStatus.mutateAsync({ iid, status: step.status }) : setAssignees.mutateAsync({ iid, assigneeIds: step.assigneeIds });

  const undo = async (undos: Array<{ iid: number; steps: UndoStep[] }>) => {
    setBusy(true);
    try {
      const restored = await Promise.all(
        undos.map(async ({ iid, steps }) => {
          let alert: Alert | undefined;
          for (const step of steps) alert = await apply(iid, step);
          return alert;
        }),
      );
      const statuses = [...new Set(restored.map((alert) => alert && STATUS_LABELS[alert.status as AlertStatus]))].filter(Boolean);
      message.success(`Undone: ${alertsText(undos.map((item) => item.iid))} ${undos.length === 1 ? 'is' : 'are'} ${statuses.join(' or ')} again.`);
    } catch (error) {
      message.error(error, 'Not undone');
      void queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) });
    } finally {
      setBusy(false);
    }
  };

  /** Says what was done, with Undo for the alerts it can put back (also for a change made by another call, the bulk acknowledgement). */
  const sayDone = (text: string, undos: ReadonlyArray<{ iid: number; steps: UndoStep[] }>) => {
    const undoable = undos.filter((item) => item.steps.length > 0);
    message.success(<UndoableNote text={text} onUndo={undoable.length > 0 ? () => void undo(undoable) : undefined} />);
  };

  /** Acts on each of `alerts` the action changes; says what it did, with Undo. */
  const act = async (alerts: readonly Alert[], action: TriageAction) => {
    const targets = alerts.filter((alert) => actionApplies(action, stateOf(alert), me));
    if (targets.length === 0) {
      message.success(alerts.length === 1 ? `Alert #${alerts[0].iid} is already ${DONE[action]}.` : `Nothing to do: the alerts are already ${DONE[action]}.`);
      return;
    }
    setBusy(true);
    message.clear();
    try {
      const done = await Promise.all(
        targets.map(async (alert) => {
          const step: UndoStep =
            action === 'assign' ? { assigneeIds: [...stateOf(alert).assigneeIds, me as number] } : { status: action === 'acknowledge' ? 'acknowledged' : 'resolved' };
          const after = await apply(alert.iid, step);
          return { iid: alert.iid, steps: undoSteps(stateOf(alert), stateOf(after)) };
        }),
      );
      sayDone(`${alertsText(done.map((item) => item.iid))} ${DONE[action]}.`, done);
    } catch (error) {
      message.error(error, REFUSED[action]);
      // What was refused may have changed meanwhile: every row shows its status as stored.
      void queryClient.invalidateQueries({ queryKey: queryKeys.alerts(projectId) });
    } finally {
      setBusy(false);
    }
  };

  return { me, act, sayDone, busy };
}

/** What an action did, and Undo until UNDO_SECONDS have passed. */
function UndoableNote({ text, onUndo }: { text: string; onUndo?: () => void }) {
  const [open, setOpen] = useState(onUndo !== undefined);
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => setOpen(false), UNDO_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [open]);
  return (
    <>
      {text}
      {open && onUndo && (
        <>
          {' '}
          <button type="button" className="link-button undo" onClick={onUndo}>
            Undo
          </button>
        </>
      )}
    </>
  );
}

interface QuickActionsProps {
  alert: Alert;
  me: number | null;
  busy: boolean;
  /** Says which alert in the buttons' hidden words (a list row); the alert page's heading says it there. */
  inRow?: boolean;
  onAct(action: TriageAction): void;
}

/** Acknowledge, Resolve and Assign to me for one alert: only those that change it. */
export function QuickActions({ alert, me, busy, inRow, onAct }: QuickActionsProps) {
  const state = stateOf(alert);
  const actions = (['acknowledge', 'resolve', 'assign'] as const).filter((action) => actionApplies(action, state, me));
  if (actions.length === 0) return null;
  return (
    <div className="quick-actions" role="group" aria-label={`Actions on alert #${alert.iid}`}>
      {actions.map((action) => (
        <button key={action} type="button" className="button button-small" aria-disabled={busy} onClick={() => !busy && onAct(action)}>
          {ACTION_LABELS[action]}
          {inRow && <span className="visually-hidden"> alert #{alert.iid}</span>}
        </button>
      ))}
    </div>
  );
}
