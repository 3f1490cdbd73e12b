import { Silence } from '@alert-ingestion/alerts-domain';
import { SilenceMatcher, SilenceState } from '@alert-ingestion/contracts';
import { AlertsDatabase } from './alerts-database';

/** The columns of `silences`, read as a SilenceRow (bigint as decimal strings, timestamptz as Date). */
export const SILENCE_COLUMNS = `id, project_id, matchers, starts_at, ends_at, comment, created_by_id, created_by_username, created_at, updated_at`;

export interface SilenceRow extends Silence {
  created_by_id: string | null;
  created_by_username: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A silence with who created it and when. */
export interface StoredSilence extends Silence {
  created_by: { id: string; username: string } | null;
  created_at: Date;
  updated_at: Date;
}

export function storedSilence(row: SilenceRow): StoredSilence {
  const { created_by_id: id, created_by_username: username, ...silence } = row;
  return { ...silence, created_by: id === null ? null : { id, username: username ?? '' } };
}

export interface NewSilence {
  projectId: string;
  matchers: SilenceMatcher[];
  startsAt: Date;
  endsAt: Date;
  comment: string;
  createdBy: { id: string; username: string } | null;
}

export interface SilenceListQuery {
  projectId: string;
  state?: SilenceState;
  page: number;
  perPage: number;
  now: Date;
}

export interface SilenceChanges {
  matchers?: SilenceMatcher[];
  endsAt?: Date;
  comment?: string;
}

/** States as conditions on `silences` at $2 (the time the list is asked for). */
const STATE_CONDITIONS: Record<SilenceState, string> = {
  pending: 'starts_at > $2',
  active: 'starts_at <= $2 AND ends_at > $2',
  expired: 'ends_at <= $2',
};

/** The silences of projects (docs/api-guide.md "Silences"): the alerts API's side; the batch reads them in its own transaction. */
export class SilencesRepository {
  constructor(private readonly database: AlertsDatabase) {}

  async create(silence: NewSilence, now: Date): Promise<StoredSilence> {
    const result = await this.database.pool.query<SilenceRow>(
      `INSERT INTO silences (project_id, matchers, starts_at, ends_at, comment, created_by_id, created_by_username, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${SILENCE_COLUMNS}`,
      [
        silence.projectId,
        JSON.stringify(silence.matchers),
        silence.startsAt,
        silence.endsAt,
        silence.comment,
        silence.createdBy?.id ?? null,
        silence.createdBy?.username ?? null,
        now,
      ],
    );
    return storedSilence(result.rows[0]);
  }

  /** Newest first (highest id first: ids are given in creation order); expired ones stay listed. */
  async list(query: SilenceListQuery): Promise<{ silences: StoredSilence[]; total: number }> {
    const where = `project_id = $1${query.state ? ` AND ${STATE_CONDITIONS[query.state]}` : ' AND $2::timestamptz IS NOT NULL'}`;
    const parameters = [query.projectId, query.now];
    const offset = (query.page - 1) * query.perPage;
    const page = `ORDER BY id DESC LIMIT ${query.perPage} OFFSET ${offset}`;
    const { rows, total } = await this.database.page<SilenceRow>(SILENCE_COLUMNS, `silences WHERE ${where}`, page, parameters);
    return { silences: rows.map(storedSilence), total };
  }

  async find(projectId: string, id: string): Promise<StoredSilence | undefined> {
    const result = await this.database.pool.query<SilenceRow>(`SELECT ${SILENCE_COLUMNS} FROM silences WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return result.rows[0] && storedSilence(result.rows[0]);
  }

  /**
   * Applies `decide` to the silence, locked, and writes the changes it returns (none: unchanged).
   * `decide` checks the changed silence (the window) before anything is written.
   */
  async update<E>(
    projectId: string,
    id: string,
    now: Date,
    decide: (current: StoredSilence) => { changes: SilenceChanges | null } | { error: E },
  ): Promise<{ silence: StoredSilence } | { error: E } | undefined> {
    return this.database.transaction(async (client) => {
      const current = await client.query<SilenceRow>(`SELECT ${SILENCE_COLUMNS} FROM silences WHERE project_id = $1 AND id = $2 FOR UPDATE`, [projectId, id]);
      if (!current.rows[0]) return undefined;
      const silence = storedSilence(current.rows[0]);
      const decision = decide(silence);
      if ('error' in decision) return { error: decision.error };
      if (!decision.changes) return { silence };
      const { matchers, endsAt, comment } = decision.changes;
      const updated = await client.query<SilenceRow>(
        `UPDATE silences SET matchers = COALESCE($2, matchers), ends_at = COALESCE($3, ends_at), comment = COALESCE($4, comment), updated_at = $5
         WHERE id = $1 RETURNING ${SILENCE_COLUMNS}`,
        [id, matchers === undefined ? null : JSON.stringify(matchers), endsAt ?? null, comment ?? null, now],
      );
      return { silence: storedSilence(updated.rows[0]) };
    });
  }

  /**
   * Ends the silence at `now` (Alertmanager's expire); a pending one ends where it starts, at `now`.
   * An expired silence is left as it is.
   */
  async expire(projectId: string, id: string, now: Date): Promise<StoredSilence | undefined> {
    const result = await this.database.pool.query<SilenceRow>(
      `UPDATE silences SET ends_at = $3, starts_at = LEAST(starts_at, $3), updated_at = $3
       WHERE project_id = $1 AND id = $2 AND ends_at > $3 RETURNING ${SILENCE_COLUMNS}`,
      [projectId, id, now],
    );
    return result.rows[0] ? storedSilence(result.rows[0]) : this.find(projectId, id);
  }
}
