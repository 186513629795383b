/**
 * The host's session rows (`admin::session`, the Session Manager's) as the accounts feature reads them
 * (features/accounts/access-tokens.ts, session-revocation.ts).
 */
import type { Core } from '@strapi/strapi';

export const HOST_SESSION_UID = 'admin::session';

/** The row of that session id (only its id), if the session lives. */
export const hostSessionRow = (strapi: Core.Strapi, sessionId: string) =>
  strapi.db.query(HOST_SESSION_UID).findOne({ where: { sessionId }, select: ['id'] });

/** The session id and origin of the rows matching `where` (a lifecycle event's). */
export const hostSessionsMatching = (strapi: Core.Strapi, where: object) =>
  strapi.db.query(HOST_SESSION_UID).findMany({ where, select: ['sessionId', 'origin'] }) as Promise<{ sessionId: string; origin: string }[]>;

export const deleteHostSessions = (strapi: Core.Strapi, sessionIds: string[]) =>
  strapi.db.query(HOST_SESSION_UID).deleteMany({ where: { sessionId: { $in: sessionIds } } });

/**
 * The session ids the rows of `sessionIds` were rotated from, at any depth (one recursive SELECT over `child_id`,
 * `sessionIds` themselves left out), inside `trx` when given.
 */
export const rotatedAncestors = async (strapi: Core.Strapi, sessionIds: string[], trx: unknown): Promise<string[]> => {
  const { tableName } = strapi.db.metadata.get(HOST_SESSION_UID);
  const schema = strapi.db.getSchemaName();
  const table = schema ? `${schema}.${tableName}` : tableName;
  const list = sessionIds.map(() => '?').join(', ');
  const statement = strapi.db.connection.raw(
    `WITH RECURSIVE up(session_id) AS (SELECT session_id FROM ?? WHERE child_id IN (${list}) ` +
      'UNION SELECT s.session_id FROM ?? s JOIN up ON s.child_id = up.session_id) SELECT session_id FROM up',
    [table, ...sessionIds, table],
  );
  const result = (await (trx ? statement.transacting(trx as never) : statement)) as { rows?: { session_id: string }[] } | { session_id: string }[];
  const rows = Array.isArray(result) ? result : (result.rows ?? []);
  return rows.map((row) => String(row.session_id)).filter((id) => !sessionIds.includes(id));
};
