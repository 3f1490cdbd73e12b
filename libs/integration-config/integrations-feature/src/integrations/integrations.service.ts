import { Integration, IntegrationListItem, PayloadAlertField, PreviewAlert, ProjectTier, TestAlertSample } from '@alert-ingestion/contracts';
import { sha256Hex, signingSecretCipher } from '@alert-ingestion/crypto';
import { ConflictError } from '@alert-ingestion/http';
import {
  ConfigDatabase,
  ConfigTransaction,
  IntegrationRow,
  IntegrationSnapshotOutbox,
  IntegrationsRepository,
  ProjectsRepository,
} from '@alert-ingestion/integrations-data';
import {
  AuthorizationKeyCipher,
  generateAuthorizationKey,
  generateSigningSecret,
  generateUrlToken,
  gracePeriodMinutes,
  IntegrationCreateRequest,
  IntegrationUpdateRequest,
  listPayloadAlertFields,
  planIntegrationCreate,
  planIntegrationUpdate,
  parseSamplePayload,
  previousKeysAfterReset,
  revokePreviousKeys,
  requirePremiumForCustomMapping,
  signatureTimestampSwitchChange,
  signingSecretChange,
} from '@alert-ingestion/integrations-domain';
import { isUniqueViolation } from '@alert-ingestion/sql';
import { Inject, Injectable } from '@nestjs/common';
import { applyRules, integrationNotFound } from '../errors';
import { lockProject } from '../projects/project-lock';
import { INTEGRATIONS_FEATURE_OPTIONS, IntegrationsFeatureOptions } from '../integrations-feature.options';
import { IntegrationCiphers, presentIntegration, presentListItem, storedIntegration, storedMapping } from './integration-presenter';
import { IntegrationChange, IntegrationMetrics } from './integration-metrics';
import { IntegrationSnapshotRelay } from './integration-snapshot-relay';
import { previewAlerts } from './alert-preview';
import { payloadFromText, TestAlertResult, TestAlertService } from './test-alert.service';

const TRANSACTION_OPTIONS = { timeout: 15_000, maxWait: 10_000 };

/**
 * Alert integrations of a project (spec 2.1, 2.3; CONTRACT.md "Integrations"). Every write runs in
 * one transaction that first locks the project row (SELECT ... FOR UPDATE): the rules that span
 * integrations (Free tier: one HTTP Endpoint; the external link excludes other active integrations;
 * unique names) are checked and written under that lock, so concurrent requests are serialised per
 * project and cannot break them; partial unique indexes back the name and external link rules.
 * A request that breaks a rule rolls back whole. Each change writes the integration's snapshot to the
 * outbox in the same transaction (IntegrationSnapshotOutbox).
 */
@Injectable()
export class IntegrationsService {
  private readonly cipher: AuthorizationKeyCipher;
  private readonly ciphers: IntegrationCiphers;

  constructor(
    private readonly database: ConfigDatabase,
    private readonly projects: ProjectsRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly snapshotOutbox: IntegrationSnapshotOutbox,
    private readonly snapshotRelay: IntegrationSnapshotRelay,
    private readonly testAlerts: TestAlertService,
    private readonly metrics: IntegrationMetrics,
    @Inject(INTEGRATIONS_FEATURE_OPTIONS) private readonly options: IntegrationsFeatureOptions,
  ) {
    this.cipher = new AuthorizationKeyCipher(options.authorizationKeyEncryptionKey);
    this.ciphers = { authorizationKeys: this.cipher, signingSecrets: signingSecretCipher(options.authorizationKeyEncryptionKey) };
  }

  /** The list items only (read by developers too): the select names no credential column. */
  async list(projectId: bigint): Promise<IntegrationListItem[]> {
    const rows = await this.integrations.listItems(projectId);
    return rows.map(presentListItem);
  }

  async get(projectId: bigint, integrationId: bigint): Promise<Integration> {
    return this.present(await this.find(projectId, integrationId));
  }

  async create(projectId: bigint, request: IntegrationCreateRequest): Promise<Integration> {
    return this.writeIntegration('created', async (tx) => {
      const tier = await lockProject(this.projects, tx, projectId);
      const existing = await this.integrations.projectIntegrations(tx, projectId);
      const settings = applyRules(() => planIntegrationCreate(tier, request, existing));
      const signingSecret = applyRules(() => signingSecretChange(request.signing_secret, settings.type));
      const allowWithoutTimestamp = applyRules(() => signatureTimestampSwitchChange(request.allow_signature_without_timestamp, settings.type));
      const authorizationKey = generateAuthorizationKey();
      return this.integrations.create(tx, {
        projectId,
        settings,
        urlToken: generateUrlToken(),
        authorizationKeyEncrypted: this.cipher.encrypt(authorizationKey),
        authorizationKeySha256: sha256Hex(authorizationKey),
        signingSecretEncrypted: this.encryptSigningSecret(signingSecret) ?? null,
        allowSignatureWithoutTimestamp: allowWithoutTimestamp ?? false,
      });
    });
  }

  async update(projectId: bigint, integrationId: bigint, request: IntegrationUpdateRequest): Promise<Integration> {
    return this.writeIntegration('updated', async (tx) => {
      const tier = await lockProject(this.projects, tx, projectId);
      const current = await this.find(projectId, integrationId, tx);
      const others = (await this.integrations.projectIntegrations(tx, projectId)).filter((other) => other.id !== current.id.toString());
      const settings = applyRules(() => planIntegrationUpdate(tier, storedIntegration(current), request, others));
      const signingSecret = applyRules(() => signingSecretChange(request.signing_secret, current.type));
      const allowWithoutTimestamp = applyRules(() => signatureTimestampSwitchChange(request.allow_signature_without_timestamp, current.type));
      return this.integrations.change(tx, current.id, {
        settings,
        ...(signingSecret === undefined ? {} : { signing_secret_encrypted: this.encryptSigningSecret(signingSecret) }),
        ...(allowWithoutTimestamp === undefined ? {} : { allow_signature_without_timestamp: allowWithoutTimestamp }),
      });
    });
  }

  async delete(projectId: bigint, integrationId: bigint): Promise<void> {
    await this.write('deleted', async (tx) => {
      await lockProject(this.projects, tx, projectId);
      if (!(await this.integrations.delete(tx, projectId, integrationId))) throw integrationNotFound();
    }, () => [integrationId]);
  }

  /**
   * Issues a new authorization key. The new hash is on the integrations topic before the answer,
   * so the gateway refuses the old key as soon as its registry reads it (well within 2 s). With a
   * grace period the replaced key keeps working until now + grace (the gateway decides its expiry
   * at request time), and so does every earlier previous key until its own expiry; a reset that
   * would need a third is refused (409) unless it revokes them (previousKeysAfterReset). Under the
   * project lock, so two resets at once cannot both add a previous key.
   */
  async resetAuthorizationKey(projectId: bigint, integrationId: bigint, request: { grace_period_minutes?: unknown; revoke_previous_keys?: unknown }): Promise<Integration> {
    const reset = applyRules(() => ({ graceMinutes: gracePeriodMinutes(request.grace_period_minutes), revokePreviousKeys: revokePreviousKeys(request.revoke_previous_keys) }));
    return this.writeIntegration('key_reset', async (tx) => {
      await lockProject(this.projects, tx, projectId);
      const current = await this.find(projectId, integrationId, tx);
      const stored = await this.integrations.storedPreviousKeys(tx, current.id);
      const replaced = { encrypted: current.authorization_key_encrypted, sha256: current.authorization_key_sha256.trim() };
      const previous = applyRules(() => previousKeysAfterReset(stored, replaced, reset, new Date()));
      await this.integrations.replacePreviousKeys(tx, current.id, previous);
      const authorizationKey = generateAuthorizationKey();
      const newest = previous.at(0);
      return this.integrations.change(tx, current.id, {
        authorization_key_encrypted: this.cipher.encrypt(authorizationKey),
        authorization_key_sha256: sha256Hex(authorizationKey),
        // The single-key columns the previous release reads during a rolling update: the newest previous key.
        previous_authorization_key_encrypted: newest?.encrypted ?? null,
        previous_authorization_key_sha256: newest?.sha256 ?? null,
        previous_authorization_key_expires_at: newest?.expires_at ?? null,
      });
    });
  }

  /** Gives an HTTP Endpoint a new random signing secret; from the answer on, its requests must be signed with it. */
  async resetSigningSecret(projectId: bigint, integrationId: bigint): Promise<Integration> {
    return this.writeIntegration('updated', async (tx) => {
      const current = await this.find(projectId, integrationId, tx);
      const signingSecret = applyRules(() => signingSecretChange(generateSigningSecret(), current.type));
      return this.integrations.change(tx, current.id, { signing_secret_encrypted: this.encryptSigningSecret(signingSecret) });
    });
  }

  /** "Parse payload for custom mapping" (spec 2.1); custom mapping is a Premium feature (spec 1.4). */
  parseSamplePayload(tier: ProjectTier, samplePayload: string): { payload_alert_fields: PayloadAlertField[] } {
    applyRules(() => requirePremiumForCustomMapping(tier));
    return { payload_alert_fields: applyRules(() => listPayloadAlertFields(parseSamplePayload(samplePayload))) };
  }

  /** What a payload would become under the integration's mapping or a proposed one; stores nothing. */
  async preview(project: { projectId: bigint; tier: ProjectTier }, integrationId: bigint, payload: string, proposedMapping: unknown): Promise<{ alerts: PreviewAlert[] }> {
    const integration = await this.findReceiving(project.projectId, integrationId, 'preview an HTTP Endpoint');
    const samplePayload = integration.sample_payload === null ? null : parseSamplePayload(integration.sample_payload);
    const alerts = previewAlerts(
      payloadFromText(payload, 'payload'),
      { tier: project.tier, payloadFieldMapping: storedMapping(integration), samplePayload },
      proposedMapping,
      new Date(),
    );
    return { alerts };
  }

  /**
   * What a developer writes a test alert from (spec 1.7, 4.2: developer+ sends test alerts, but the
   * integration's settings are maintainer+): its sample payload, and whether a custom mapping
   * applies. The URL, key and the mapping itself stay with `get`.
   */
  async testAlertSample(project: { projectId: bigint; tier: ProjectTier }, integrationId: bigint): Promise<TestAlertSample> {
    const integration = await this.findReceiving(project.projectId, integrationId, 'send test alerts to an HTTP Endpoint');
    return { sample_payload: integration.sample_payload, custom_mapping: project.tier === 'premium' && storedMapping(integration).length > 0 };
  }

  async sendTestAlert(projectId: bigint, integrationId: bigint, payload: string, requestId?: string): Promise<TestAlertResult> {
    const integration = await this.findReceiving(projectId, integrationId, 'send test alerts to an HTTP Endpoint');
    return this.testAlerts.send(
      {
        url_token: integration.url_token,
        active: integration.active,
        authorization_key: this.cipher.decrypt(integration.authorization_key_encrypted),
        signing_secret: integration.signing_secret_encrypted === null ? null : this.ciphers.signingSecrets.decrypt(integration.signing_secret_encrypted),
      },
      payload,
      requestId,
    );
  }

  /**
   * The integration as the API shows it, with its last accepted request and heartbeat status. The
   * last request is alert-processor's record, read through the read-only view
   * integration_last_requests (docs/architecture.md "Data ownership").
   */
  private async present(row: IntegrationRow): Promise<Integration> {
    const lastRequestAt = await this.integrations.lastRequestAt(row.id);
    const previousKeys = await this.integrations.previousKeys(row.id);
    return presentIntegration(row, previousKeys, this.options.gatewayPublicUrl, this.ciphers, { lastRequestAt, now: new Date(), minuteMs: this.options.heartbeatMinuteMs });
  }

  private encryptSigningSecret(secret: string | null | undefined): string | null | undefined {
    return typeof secret === 'string' ? this.ciphers.signingSecrets.encrypt(secret) : secret;
  }

  /** A write of one integration, answered with the integration as the API shows it. */
  private async writeIntegration(change: IntegrationChange, work: (tx: ConfigTransaction) => Promise<IntegrationRow>): Promise<Integration> {
    return this.present(await this.write(change, work, (integration) => [integration.id]));
  }

  /**
   * Runs a write transaction that also writes the snapshots of the integrations it `changed` to the
   * outbox, counts the `change` once committed, and answers once the snapshots are on the
   * integrations topic. A unique index that still catches a race answers 409.
   */
  private async write<T>(change: IntegrationChange, work: (tx: ConfigTransaction) => Promise<T>, changed: (result: T) => readonly bigint[]): Promise<T> {
    let outboxId: bigint | null = null;
    try {
      const result = await this.database.transaction(async (tx) => {
        const value = await work(tx);
        outboxId = await this.snapshotOutbox.record(tx, changed(value));
        return value;
      }, TRANSACTION_OPTIONS);
      this.metrics.changed(change);
      await this.snapshotRelay.published(outboxId);
      return result;
    } catch (error) {
      if (isUniqueViolation(error, 'alert_integrations_http_name_key')) {
        throw new ConflictError('The project already has an HTTP Endpoint with this name.', 'name_taken');
      }
      if (isUniqueViolation(error, 'alert_integrations_one_external_link_key')) {
        throw new ConflictError('The project already has an external link integration.', 'external_link_exists');
      }
      throw error;
    }
  }

  /** The project's integration of that id (404 otherwise), in the transaction when one is given. */
  private async find(projectId: bigint, integrationId: bigint, tx?: ConfigTransaction): Promise<IntegrationRow> {
    const row = await this.integrations.find(projectId, integrationId, tx);
    if (!row) throw integrationNotFound();
    return row;
  }

  /** An HTTP Endpoint: the external link receives no alerts, so `instead` says what to do. */
  private async findReceiving(projectId: bigint, integrationId: bigint, instead: string) {
    const integration = await this.find(projectId, integrationId);
    if (integration.type !== 'http') throw new ConflictError(`The external link integration receives no alerts; ${instead}.`, 'not_applicable');
    return integration;
  }
}
