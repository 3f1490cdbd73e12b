import { Silence, SilenceEdit, SilenceWrite, StoredSilence } from '@alert-ingestion/alerts-domain';
import { SilenceState } from '@alert-ingestion/contracts';
import { AlertsDatabase, ScriptedTransaction } from './alerts-database';

/** The columns of `silences`, read as a SilenceRow (bigint as decimal strings, timestamptz as Date). */
export const SILENCE_COLUMNS = `id, project_id, matchers, starts_at, ends_at, comment, created_by_id, created_by_username, created_at, updated_at`;

export interface SilenceRow extends Silence {
  created_by_id: string | null;
  created_by_username: string | null;
  created_at: Date;
  updated_at: Date;
}

export function storedSilence(row: SilenceRow): StoredSilence {
  const { created_by_id: id, created_by_username: username, ...silence } = row;
  return { ...silence, created_by: id === null ? null : { id, username: username ?? '' } };
}

export interface SilenceListQuery {
  projectId: string;
  state?: SilenceState;
  page: number;
  perPage: number;
  now: Date;
}

/** States as conditions on `silences` at $2 (the time the list is asked for). */
const STATE_CONDITIONS: Record<SilenceState, string> = {
  pending: 'starts_at > $2',
  active: 'starts_at <= $2 AND ends_at > $2',
  expired: 'ends_at <= $2',
};

/** The silences of projects (docs/api-guide.md "Silences"): the API's reads, and an edit's locked read and write; the batch reads them in its own transaction. */
export class SilencesRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /** What an edit is decided on (planSilenceEdit): the silence, locked; none for a create. */
  async lockForEdit(transaction: ScriptedTransaction, edit: SilenceEdit): Promise<StoredSilence | undefined> {
    if (edit.kind === 'create') return undefined;
    const current = await transaction.query<SilenceRow>(`SELECT ${SILENCE_COLUMNS} FROM silences WHERE project_id = $1 AND id = $2 FOR UPDATE`, [edit.projectId, edit.id]);
    return current.rows[0] && storedSilence(current.rows[0]);
  }

  /** Writes an edit's row (none: the silence as it is) and answers the silence as stored now. */
  async write(transaction: ScriptedTransaction, write: SilenceWrite | null, stored: StoredSilence | undefined): Promise<{ answer: StoredSilence }> {
    if (!write) return { answer: stored as StoredSilence };
    const written = await transaction.query<SilenceRow>(...silenceStatement(write));
    return { answer: storedSilence(written.rows[0]) };
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
}

/** The statement (and its parameters) that writes a silence edit and returns the silence as written. */
function silenceStatement(write: SilenceWrite): [string, unknown[]] {
  if ('insert' in write) {
    const silence = write.insert;
    return [
      `INSERT INTO silences (project_id, matchers, starts_at, ends_at, comment, created_by_id, created_by_username, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${SILENCE_COLUMNS}`,
      [
        silence.project_id,
        JSON.stringify(silence.matchers),
        silence.starts_at,
        silence.ends_at,
        silence.comment,
        silence.created_by?.id ?? null,
        silence.created_by?.username ?? null,
        silence.created_at,
      ],
    ];
  }
  const { id, matchers, starts_at, ends_at, comment, updated_at } = write.update;
  return [
    `UPDATE silences SET matchers = COALESCE($2, matchers), starts_at = COALESCE($3, starts_at), ends_at = COALESCE($4, ends_at),
       comment = COALESCE($5, comment), updated_at = $6
     WHERE id = $1 RETURNING ${SILENCE_COLUMNS}`,
    [id, matchers === undefined ? null : JSON.stringify(matchers), starts_at ?? null, ends_at ?? null, comment ?? null, updated_at],
  ];
}
