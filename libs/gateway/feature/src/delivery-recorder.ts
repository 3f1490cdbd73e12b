import { DeliveryRecord } from '@alert-ingestion/contracts';

/** What the recorder needs of a publisher (TopicProducer.batched(Topic.Deliveries) fits: it encodes and batches concurrent sends). */
export interface DeliveryRecordPublisher {
  publish(key: string, value: DeliveryRecord.DeliveryRecordValue): Promise<void>;
}

export interface DeliveryRecorderOptions {
  /**
   * Most delivery records per integration per second and gateway instance. A sender hammering a
   * URL it may not use (401) or faster than its limit (429) would otherwise cost a record per
   * request; deliveries keep the latest ones per integration anyway.
   */
  maxPerIntegrationPerSecond: number;
  logger: { warn(message: string): void };
  now?: () => number;
}

/**
 * Reports deliveries the processor does not record itself (refusals of a known URL, and 202s) to
 * alerts.deliveries.v1, off the request path: the answer never waits for it, and a failure is
 * logged, not answered (a delivery record is a diagnostic, the alert is what counts).
 */
export class DeliveryRecorder {
  private readonly windows = new Map<string, { second: number; count: number }>();
  private readonly now: () => number;
  private failing = false;

  constructor(
    private readonly publisher: DeliveryRecordPublisher,
    private readonly options: DeliveryRecorderOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  record(value: DeliveryRecord.DeliveryRecordValue): void {
    if (!this.admit(value.integration_id)) return;
    this.publisher.publish(value.integration_id, value).then(
      () => void (this.failing = false),
      (error: unknown) => {
        if (this.failing) return;
        this.failing = true;
        this.options.logger.warn(`Recording deliveries failed (logged once until it works again): ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  private admit(integrationId: string): boolean {
    const second = Math.floor(this.now() / 1000);
    const window = this.windows.get(integrationId);
    if (!window || window.second !== second) {
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(integrationId, { second, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= this.options.maxPerIntegrationPerSecond;
  }
}
