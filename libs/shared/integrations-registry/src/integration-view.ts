import { IntegrationSnapshot } from '@alert-ingestion/contracts';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

/** What applying one record of the integrations topic did. */
export type IntegrationViewChange = 'upserted' | 'deleted' | 'stale' | 'unchanged';

/**
 * The in-memory state of the compacted integrations topic: the latest snapshot of every
 * integration, by id and by URL token. Pure state; IntegrationRegistry feeds it from Kafka.
 */
export class IntegrationView {
  private readonly byId = new Map<string, Snapshot>();
  private readonly byUrlToken = new Map<string, Snapshot>();

  get size(): number {
    return this.byId.size;
  }

  findById(id: string): Snapshot | undefined {
    return this.byId.get(id);
  }

  findByUrlToken(urlToken: string): Snapshot | undefined {
    return this.byUrlToken.get(urlToken);
  }

  all(): Snapshot[] {
    return [...this.byId.values()];
  }

  /**
   * Applies a snapshot. A snapshot older than the one held (lower `version`) is stale and ignored;
   * an equal version replaces (integration-config republishes unchanged snapshots on start-up).
   * A changed URL token drops the old one, so the old URL stops resolving at once.
   */
  upsert(snapshot: Snapshot): IntegrationViewChange {
    const previous = this.byId.get(snapshot.id);
    if (previous && snapshot.version < previous.version) return 'stale';
    if (previous && previous.url_token !== snapshot.url_token && this.byUrlToken.get(previous.url_token)?.id === snapshot.id) {
      this.byUrlToken.delete(previous.url_token);
    }
    this.byId.set(snapshot.id, snapshot);
    this.byUrlToken.set(snapshot.url_token, snapshot);
    return 'upserted';
  }

  /** Applies a tombstone: the integration was deleted. */
  delete(id: string): IntegrationViewChange {
    const previous = this.byId.get(id);
    if (!previous) return 'unchanged';
    this.byId.delete(id);
    if (this.byUrlToken.get(previous.url_token)?.id === id) this.byUrlToken.delete(previous.url_token);
    return 'deleted';
  }
}
