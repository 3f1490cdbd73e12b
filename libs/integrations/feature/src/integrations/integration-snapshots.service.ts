import { IntegrationSnapshot, PayloadFieldMappingEntry, ProjectTier } from '@alert-ingestion/contracts';
import { PrismaService } from '@alert-ingestion/database';
import { IntegrationType } from '@alert-ingestion/integrations-domain';
import { IntegrationPublisher, IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { ensureTopics, KAFKA_CLIENT } from '@alert-ingestion/kafka';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { INTEGRATIONS_FEATURE_OPTIONS, IntegrationsFeatureOptions } from '../integrations-feature.options';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

/** What a snapshot is built from: the integration row joined with its project's tier. */
interface SnapshotRow {
  id: bigint;
  project_id: bigint;
  project_tier: ProjectTier;
  type: IntegrationType;
  name: string;
  active: boolean;
  url_token: string;
  authorization_key_sha256: string;
  payload_field_mapping: PayloadFieldMappingEntry[];
  version: number;
  updated_at: Date;
}

export function toSnapshot(row: SnapshotRow): Snapshot {
  return {
    id: row.id.toString(),
    project_id: row.project_id.toString(),
    project_tier: row.project_tier,
    type: row.type,
    name: row.name,
    active: row.active,
    url_token: row.url_token,
    authorization_key_sha256: row.authorization_key_sha256.trim(),
    payload_field_mapping: row.payload_field_mapping,
    version: row.version,
    updated_at: row.updated_at.toISOString(),
  };
}

const COMPARED_FIELDS = ['id', 'project_id', 'project_tier', 'type', 'name', 'active', 'url_token', 'authorization_key_sha256', 'version'] as const;

function mappingKey(mapping: readonly PayloadFieldMappingEntry[]): string {
  return JSON.stringify(mapping.map((entry) => [entry.field_name, entry.path, entry.type]));
}

/** Whether a consumer holding `held` already has everything `current` says. */
function sameSnapshot(held: Snapshot | undefined, current: Snapshot): boolean {
  if (!held) return false;
  return COMPARED_FIELDS.every((field) => held[field] === current[field]) && mappingKey(held.payload_field_mapping) === mappingKey(current.payload_field_mapping);
}

const RETRY_INTERVAL_MS = 2_000;

/**
 * Publishes integration changes to the compacted integrations topic, AFTER the database commit,
 * so consumers never see a change that was rolled back.
 *
 * Ordering: compaction keeps the LAST record per key, so the last record must be the latest state.
 * Two changes of one integration may commit in one order and publish in the other. To rule that
 * out, a publish does not send what its transaction wrote: it locks the integration row
 * (SELECT ... FOR UPDATE), reads the committed state (none: a tombstone) and sends it while holding
 * the lock. Publishes of one integration are thereby serialised, and each sends a state no older
 * than the one before it.
 *
 * Failure between commit and publish: a failed publish is retried in the background every 2 s, and
 * at start-up every integration is compared with the topic (read through an IntegrationRegistry)
 * and republished when it differs; ids on the topic that are gone from the database get a tombstone.
 */
@Injectable()
export class IntegrationSnapshotsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IntegrationSnapshotsService.name);
  private readonly publisher: IntegrationPublisher;
  private readonly pending = new Set<bigint>();
  private retryTimer: NodeJS.Timeout | undefined;
  private retrying = false;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(KAFKA_CLIENT) private readonly kafka: Kafka,
    @Inject(INTEGRATIONS_FEATURE_OPTIONS) private readonly options: IntegrationsFeatureOptions,
  ) {
    this.publisher = new IntegrationPublisher(kafka, { topicPrefix: options.topicPrefix });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Every service creates the topics it needs up front (idempotent); kafkajs cannot use a missing topic.
    await ensureTopics(this.kafka, this.options.topicPrefix);
    await this.publisher.connect();
    if (this.options.resyncOnStart ?? true) await this.resync();
    this.retryTimer = setInterval(() => void this.retryPending(), RETRY_INTERVAL_MS);
    this.retryTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.retryTimer);
    await this.publisher.disconnect();
  }

  /** Integrations whose latest state is not on the topic yet (a publish failed and awaits its retry). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Publishes the committed state of each integration. A failure is logged and left to the
   * background retry: the change is durably stored, and the topic catches up when Kafka answers.
   */
  async publishAfterCommit(ids: readonly bigint[]): Promise<void> {
    for (const id of ids) {
      try {
        await this.publishCurrentState(id);
      } catch (error) {
        this.pending.add(id);
        this.logger.warn(`Publishing integration ${id} failed; retrying in the background: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Locks the integration row, reads its committed state and publishes it (a tombstone when deleted). */
  async publishCurrentState(id: bigint): Promise<void> {
    await this.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<SnapshotRow[]>`
          SELECT i.id, i.project_id, p.tier::text AS project_tier, i.type::text AS type, i.name, i.active,
                 i.url_token, i.authorization_key_sha256, i.payload_field_mapping, i.version, i.updated_at
          FROM alert_integrations i JOIN projects p ON p.id = i.project_id
          WHERE i.id = ${id}
          FOR UPDATE OF i`;
        if (rows.length === 0) await this.publisher.publishDeletion(id.toString());
        else await this.publisher.publish(toSnapshot(rows[0]));
      },
      { timeout: 30_000, maxWait: 10_000 },
    );
    this.pending.delete(id);
  }

  /**
   * Makes the topic match the database (start-up): republishes every integration whose snapshot on
   * the topic differs or is missing, and tombstones integrations the database no longer has.
   */
  async resync(): Promise<{ published: number; deleted: number }> {
    const registry = new IntegrationRegistry(this.kafka, {
      topicPrefix: this.options.topicPrefix,
      consumerName: 'integration-config-resync',
      logger: this.logger,
    });
    await registry.start();
    try {
      let published = 0;
      const known = new Set<string>();
      let after = 0n;
      for (;;) {
        const rows = await this.prisma.$queryRaw<SnapshotRow[]>`
          SELECT i.id, i.project_id, p.tier::text AS project_tier, i.type::text AS type, i.name, i.active,
                 i.url_token, i.authorization_key_sha256, i.payload_field_mapping, i.version, i.updated_at
          FROM alert_integrations i JOIN projects p ON p.id = i.project_id
          WHERE i.id > ${after} ORDER BY i.id LIMIT 500`;
        if (rows.length === 0) break;
        for (const row of rows) {
          known.add(row.id.toString());
          if (!sameSnapshot(registry.findById(row.id.toString()), toSnapshot(row))) {
            await this.publishCurrentState(row.id);
            published++;
          }
        }
        after = rows[rows.length - 1].id;
      }
      let deleted = 0;
      for (const snapshot of registry.all()) {
        if (!known.has(snapshot.id)) {
          await this.publishCurrentState(BigInt(snapshot.id));
          deleted++;
        }
      }
      this.logger.log(`Integrations topic resynchronised: ${published} published, ${deleted} deleted, ${known.size - published} already current`);
      return { published, deleted };
    } finally {
      await registry.stop();
    }
  }

  private async retryPending(): Promise<void> {
    if (this.retrying || this.pending.size === 0) return;
    this.retrying = true;
    try {
      for (const id of [...this.pending]) {
        try {
          await this.publishCurrentState(id);
          this.logger.log(`Published integration ${id} after an earlier failure`);
        } catch {
          return; // Kafka or the database is still unavailable; try again on the next tick.
        }
      }
    } finally {
      this.retrying = false;
    }
  }
}
