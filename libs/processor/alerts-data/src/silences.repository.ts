import { planSilenceEdit, Silence, SilenceEdit, SilenceWrite, StoredSilence } from '@alert-ingestion/alerts-domain';
import { SilenceState } from '@alert-ingestion/contracts';
import { AlertsDatabase } from './alerts-database';
import { CommandResult, runCommand } from './run-command';

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

/** The silences of projects (docs/api-guide.md "Silences"): the API's reads and edits; the batch reads them in its own transaction. */
export class SilencesRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * Creates, updates or expires a silence: the silence locked, planSilenceEdit's decision, its row
   * written, in one transaction. The answer is the silence as stored now.
   */
  edit(edit: SilenceEdit, now: Date): Promise<CommandResult<StoredSilence>> {
    return runCommand(this.database, {
      read: async (client) => {
        if (edit.kind === 'create') return undefined;
        const current = await client.query<SilenceRow>(`SELECT ${SILENCE_COLUMNS} FROM silences WHERE project_id = $1 AND id = $2 FOR UPDATE`, [
          edit.projectId,
          edit.id,
        ]);
        return current.rows[0] && storedSilence(current.rows[0]);
      },
      plan: (stored) => planSilenceEdit(stored, edit, now),
      write: async (client, write, stored) => {
        if (!write) return stored as StoredSilence;
        const written = await client.query<SilenceRow>(...silenceStatement(write));
        return storedSilence(written.rows[0]);
      },
    });
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
