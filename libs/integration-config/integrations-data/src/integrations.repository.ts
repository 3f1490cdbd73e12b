import { AlertIntegration, AlertIntegrationPreviousKey, Prisma } from '@alert-ingestion/database';
import { IntegrationSettings, ProjectIntegration, StoredPreviousAuthorizationKey } from '@alert-ingestion/integrations-domain';
import { ConfigDatabase, ConfigTransaction } from './config-database';

/** An alert integration as stored (`alert_integrations`), credentials encrypted or hashed. */
export type IntegrationRow = AlertIntegration;

/** A previous authorization key of a rotation as stored (`alert_integration_previous_keys`). */
export type PreviousKeyRow = AlertIntegrationPreviousKey;

/** What the list shows of an integration: no credential column. */
export type IntegrationListRow = Pick<IntegrationRow, 'id' | 'name' | 'type' | 'active'>;

/** The stored credentials of an integration, already encrypted or hashed. */
export interface IntegrationCredentialColumns {
  authorization_key_encrypted?: string;
  authorization_key_sha256?: string;
  /** The single-key columns the previous release reads during a rolling update: the newest previous key. */
  previous_authorization_key_encrypted?: string | null;
  previous_authorization_key_sha256?: string | null;
  previous_authorization_key_expires_at?: Date | null;
  /** undefined: unchanged; null: no signing secret. */
  signing_secret_encrypted?: string | null;
  allow_signature_without_timestamp?: boolean;
}

/** A change of an integration's row: its settings (but its type), its credentials, or both. */
export interface IntegrationRowChange extends IntegrationCredentialColumns {
  settings?: IntegrationSettings;
}

/** A new integration's row. */
export interface NewIntegration {
  projectId: bigint;
  settings: IntegrationSettings;
  urlToken: string;
  authorizationKeyEncrypted: string;
  authorizationKeySha256: string;
  signingSecretEncrypted: string | null;
  allowSignatureWithoutTimestamp: boolean;
}

/** The columns an integration's settings (but its type, which only creation sets) are stored in. */
function settingsColumns(settings: IntegrationSettings) {
  return {
    name: settings.name,
    active: settings.active,
    sample_payload: settings.sample_payload,
    payload_field_mapping: settings.payload_field_mapping as unknown as Prisma.InputJsonValue,
    api_url: settings.api_url,
    rate_limit_per_minute: settings.rate_limit_per_minute,
    heartbeat_interval_minutes: settings.heartbeat_interval_minutes,
  };
}

/**
 * `alert_integrations` and `alert_integration_previous_keys`, and the one read of alert-processor's
 * data integration-config makes: the view `integration_last_requests` (docs/architecture.md
 * "Data ownership"). Every change of a row gives it a new version, which its snapshot carries.
 */
export class IntegrationsRepository {
  constructor(private readonly database: ConfigDatabase) {}

  /** The project's integrations as the list shows them, by id. */
  listItems(projectId: bigint): Promise<IntegrationListRow[]> {
    return this.database.client().alertIntegration.findMany({
      where: { project_id: projectId },
      select: { id: true, name: true, type: true, active: true },
      orderBy: { id: 'asc' },
    });
  }

  /** The project's integrations as the rules that span integrations read them, by id. */
  async projectIntegrations(tx: ConfigTransaction, projectId: bigint): Promise<ProjectIntegration[]> {
    const rows = await this.database.client(tx).alertIntegration.findMany({
      where: { project_id: projectId },
      select: { id: true, type: true, name: true, active: true },
      orderBy: { id: 'asc' },
    });
    return rows.map((row) => ({ id: row.id.toString(), type: row.type, name: row.name, active: row.active }));
  }

  /** The project's integration of that id, in the transaction when one is given. */
  find(projectId: bigint, integrationId: bigint, tx?: ConfigTransaction): Promise<IntegrationRow | null> {
    return this.database.client(tx).alertIntegration.findFirst({ where: { id: integrationId, project_id: projectId } });
  }

  /** Unique names and the one external link are unique indexes: a race that breaks one is a unique violation. */
  create(tx: ConfigTransaction, integration: NewIntegration): Promise<IntegrationRow> {
    return this.database.client(tx).alertIntegration.create({
      data: {
        project_id: integration.projectId,
        type: integration.settings.type,
        ...settingsColumns(integration.settings),
        url_token: integration.urlToken,
        authorization_key_encrypted: integration.authorizationKeyEncrypted,
        authorization_key_sha256: integration.authorizationKeySha256,
        signing_secret_encrypted: integration.signingSecretEncrypted,
        allow_signature_without_timestamp: integration.allowSignatureWithoutTimestamp,
      },
    });
  }

  /** Changes columns of an integration and gives it a new version. */
  change(tx: ConfigTransaction, id: bigint, change: IntegrationRowChange): Promise<IntegrationRow> {
    const { settings, ...credentials } = change;
    return this.database.client(tx).alertIntegration.update({
      where: { id },
      data: { ...(settings === undefined ? {} : settingsColumns(settings)), ...credentials, version: { increment: 1 } },
    });
  }

  /** Whether the project had an integration of that id to delete. */
  async delete(tx: ConfigTransaction, projectId: bigint, integrationId: bigint): Promise<boolean> {
    const { count } = await this.database.client(tx).alertIntegration.deleteMany({ where: { id: integrationId, project_id: projectId } });
    return count > 0;
  }

  /** Gives every integration of the project a new version (its snapshot changes with the project); their ids. */
  async newVersionOfProject(tx: ConfigTransaction, projectId: bigint): Promise<bigint[]> {
    const client = this.database.client(tx);
    await client.alertIntegration.updateMany({ where: { project_id: projectId }, data: { version: { increment: 1 } } });
    const integrations = await client.alertIntegration.findMany({ where: { project_id: projectId }, select: { id: true } });
    return integrations.map((integration) => integration.id);
  }

  /** Every stored previous key of the integration, expired ones included, in no particular order. */
  previousKeys(integrationId: bigint, tx?: ConfigTransaction): Promise<PreviousKeyRow[]> {
    return this.database.client(tx).alertIntegrationPreviousKey.findMany({ where: { integration_id: integrationId } });
  }

  /** The previous keys as the key rotation rule reads them. */
  async storedPreviousKeys(tx: ConfigTransaction, integrationId: bigint): Promise<StoredPreviousAuthorizationKey[]> {
    const rows = await this.previousKeys(integrationId, tx);
    return rows.map((row) => ({ encrypted: row.authorization_key_encrypted, sha256: row.authorization_key_sha256.trim(), replaced_at: row.replaced_at, expires_at: row.expires_at }));
  }

  /** Replaces the integration's previous keys with `keys`. */
  async replacePreviousKeys(tx: ConfigTransaction, integrationId: bigint, keys: readonly StoredPreviousAuthorizationKey[]): Promise<void> {
    const client = this.database.client(tx);
    await client.alertIntegrationPreviousKey.deleteMany({ where: { integration_id: integrationId } });
    await client.alertIntegrationPreviousKey.createMany({
      data: keys.map((key) => ({
        integration_id: integrationId,
        authorization_key_encrypted: key.encrypted,
        authorization_key_sha256: key.sha256,
        replaced_at: key.replaced_at,
        expires_at: key.expires_at,
      })),
    });
  }

  /** The integration's last accepted request, alert-processor's record (view `integration_last_requests`); null: none yet. */
  async lastRequestAt(integrationId: bigint): Promise<Date | null> {
    const rows = await this.database.client().$queryRaw<Array<{ last_request_at: Date }>>`
      SELECT last_request_at FROM integration_last_requests WHERE integration_id = ${integrationId}`;
    return rows.length === 0 ? null : new Date(rows[0].last_request_at);
  }
}
