import type { AlertStatus } from '@console/api/types';

// An incident's alerts as its page says them (docs/console.md "Incident page"): the API lists them
// open first; these words and choices are the page's own.

/** The part of an incident's alert these rules read. */
export interface IncidentAlertLike {
  iid: number;
  title: string;
  status: AlertStatus;
}

/** Triggered and acknowledged alerts are open: closing the incident resolves them. */
export function isOpenAlert(status: AlertStatus): boolean {
  return status === 'triggered' || status === 'acknowledged';
}

/** The alerts closing the incident resolves, in the order listed. */
export function alertsClosingResolves<T extends IncidentAlertLike>(alerts: readonly T[]): T[] {
  return alerts.filter((alert) => isOpenAlert(alert.status));
}

/** An alert's state in words: a triggered alert is still firing. */
export function alertStateText(status: AlertStatus): string {
  switch (status) {
    case 'triggered':
      return 'Triggered · firing';
    case 'acknowledged':
      return 'Acknowledged · firing';
    case 'resolved':
      return 'Resolved';
    case 'ignored':
      return 'Ignored';
  }
}

/** What the close dialog says it will do: "Closing resolves 2 open alerts:", or that none is open. */
export function closingSummary(open: number): string {
  if (open === 0) return 'No alert of this incident is open: closing it resolves none.';
  return open === 1 ? 'Closing it resolves its open alert:' : `Closing it resolves its ${open} open alerts:`;
}

/** The owner select's value for a user id or nobody (''), and back. */
export function ownerChoice(ownerId: number | null): string {
  return ownerId === null ? '' : String(ownerId);
}

export function ownerIdOf(choice: string): number | null {
  return choice === '' ? null : Number(choice);
}
