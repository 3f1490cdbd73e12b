/** What one alert payload did to one alert. */
export type AlertOperation = 'create' | 'group' | 'resolve';

/** One alert payload of a batch, as far as grouping and recovery are concerned. */
export interface GroupingItem {
  projectId: string;
  /** Null: the alert is never grouped (Free tier without an explicit fingerprint). */
  fingerprintSha256: string | null;
  /** The payload has an end time: it is a recovery alert. */
  recovery: boolean;
}

/**
 * One alert the batch changes: an existing not-resolved alert (`existingAlertId`) or a new one,
 * with the batch items applied to it in order (`operations[i]` is what `items[i]` did).
 */
export interface PlannedAlert {
  existingAlertId: string | null;
  projectId: string;
  fingerprintSha256: string | null;
  items: number[];
  operations: AlertOperation[];
  /** The alert ends the batch resolved, by the item at this index. */
  resolvedByItem: number | null;
}

export interface GroupingPlan {
  alerts: PlannedAlert[];
  /** For each item, the index in `alerts` of the alert it created, grouped into or resolved; null when it had no effect. */
  itemAlert: Array<number | null>;
}

export function openAlertKey(projectId: string, fingerprintSha256: string): string {
  return `${projectId}:${fingerprintSha256}`;
}

/**
 * The grouping and recovery rules of spec 3 and CONTRACT.md, applied to a batch of alert payloads
 * in order, as if they were processed one by one:
 * - a recovery payload resolves the not-resolved alert with its fingerprint; with none it has no
 *   effect (creates nothing, answers nothing);
 * - any other payload whose fingerprint matches a not-resolved alert (triggered, acknowledged or
 *   ignored) is grouped into it: its events counter increases, nothing is created;
 * - otherwise the payload creates a new alert; in particular after a resolution an identical
 *   payload creates a new alert, and the resolved one is never grouped into.
 * `openAlerts` maps openAlertKey(project, fingerprint) to the id of the alert that is not resolved
 * when the batch starts (the database keeps at most one per key).
 */
export function planGrouping(items: readonly GroupingItem[], openAlerts: ReadonlyMap<string, string>): GroupingPlan {
  const alerts: PlannedAlert[] = [];
  const itemAlert: Array<number | null> = [];
  // Per key: the index of the open alert in `alerts`, or null once the batch has resolved it.
  const open = new Map<string, number | null>();

  const plan = (projectId: string, fingerprint: string | null, existingAlertId: string | null): number => {
    alerts.push({ existingAlertId, projectId, fingerprintSha256: fingerprint, items: [], operations: [], resolvedByItem: null });
    return alerts.length - 1;
  };
  const apply = (alertIndex: number, item: number, operation: AlertOperation): void => {
    alerts[alertIndex].items.push(item);
    alerts[alertIndex].operations.push(operation);
    if (operation === 'resolve') alerts[alertIndex].resolvedByItem = item;
    itemAlert.push(alertIndex);
  };

  items.forEach((item, index) => {
    if (item.fingerprintSha256 === null) {
      if (item.recovery) itemAlert.push(null);
      else apply(plan(item.projectId, null, null), index, 'create');
      return;
    }
    const key = openAlertKey(item.projectId, item.fingerprintSha256);
    let openIndex = open.get(key);
    if (openIndex === undefined) {
      const existingId = openAlerts.get(key);
      openIndex = existingId === undefined ? null : plan(item.projectId, item.fingerprintSha256, existingId);
      open.set(key, openIndex);
    }
    if (item.recovery) {
      if (openIndex === null) {
        itemAlert.push(null);
      } else {
        apply(openIndex, index, 'resolve');
        open.set(key, null);
      }
    } else if (openIndex === null) {
      const created = plan(item.projectId, item.fingerprintSha256, null);
      apply(created, index, 'create');
      open.set(key, created);
    } else {
      apply(openIndex, index, 'group');
    }
  });
  return { alerts, itemAlert };
}
