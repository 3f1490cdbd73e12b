import { PageMethod } from '@alert-ingestion/contracts';
import { PageUpdate, TakenStep } from '@alert-ingestion/escalation-domain';
import { counter, histogram } from '@alert-ingestion/metrics';
import { Counter, Histogram, Registry } from 'prom-client';

/** What page outcomes the metrics tell apart: the page's final status, or `retried` for a refusal tried again. */
type PageOutcome = 'sent' | 'failed' | 'retried' | 'cancelled';

/** The escalation engine's metrics (docs/operating.md "Metrics"), beside the processor's. */
export class EscalationMetrics {
  private readonly steps: Counter<'outcome'>;
  private readonly stepDelay: Histogram;
  private readonly pages: Counter<'method' | 'status'>;

  constructor(registry: Registry) {
    this.steps = counter(registry, 'alert_processor_escalation_steps_total');
    for (const outcome of ['due', 'late']) this.steps.inc({ outcome }, 0);
    this.stepDelay = histogram(registry, 'alert_processor_escalation_step_delay_seconds');
    this.pages = counter(registry, 'alert_processor_escalation_pages_total');
    for (const method of ['email', 'webhook']) for (const status of ['sent', 'failed', 'retried', 'cancelled']) this.pages.inc({ method, status }, 0);
  }

  /** Steps a claim took at `now`: each due, late when taken more than `lateMs` after its time. */
  stepsTaken(steps: readonly TakenStep[], now: number, lateMs: number): void {
    for (const step of steps) {
      const delayMs = Math.max(0, now - step.dueAt);
      this.steps.inc({ outcome: 'due' });
      if (delayMs > lateMs) this.steps.inc({ outcome: 'late' });
      this.stepDelay.observe(delayMs / 1000);
    }
  }

  /** Pages whose attempt was recorded, by method. */
  pagesRecorded(updates: ReadonlyArray<PageUpdate & { method: PageMethod }>): void {
    for (const update of updates) {
      const outcome: PageOutcome | null = update.status === 'pending' ? (update.error === null ? null : 'retried') : update.status === 'sent' || update.status === 'failed' ? update.status : null;
      if (outcome) this.pages.inc({ method: update.method, status: outcome });
    }
  }

  pagesCancelled(methods: readonly PageMethod[]): void {
    for (const method of methods) this.pages.inc({ method, status: 'cancelled' });
  }
}
