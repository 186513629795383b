/** Comment test shortcuts: articles, bulk-seeded comment rows (with their relation links) and admin logins. */
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { createDocument } from './fixtures';
import { PLUGIN, type TestApp } from './strapi';

export const COMMENT = `${PLUGIN}.comment`;
export const ARTICLE = `${PLUGIN}.article`;

let articleCounter = 0;

/** A published article (or a draft-only one with `publish: false`). */
export async function createArticle(strapi: Core.Strapi, { publish = true }: { publish?: boolean } = {}) {
  articleCounter += 1;
  const title = `Article ${articleCounter} ${crypto.randomBytes(3).toString('hex')}`;
  return createDocument(strapi, ARTICLE, { title, slug: title.toLowerCase().replace(/\s+/g, '-') }, { publish });
}

const documentId = () => crypto.randomBytes(12).toString('hex');

interface SeedRow {
  content: string;
  status?: 'pending' | 'approved' | 'rejected';
  /** Index into the seeded rows of the parent, or null. */
  parentIndex: number | null;
}

/**
 * Inserts comments in bulk through the query engine and links them to every row of the article and to their
 * parents in the join tables, as the Document Service would. Returns the new ids in input order.
 */
export async function seedComments(strapi: Core.Strapi, articleDocumentId: string, rows: SeedRow[]): Promise<number[]> {
  const start = Date.now();
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500).map((row, j) => ({
      documentId: documentId(),
      content: row.content,
      status: row.status ?? 'approved',
      isAdmin: false,
      createdAt: new Date(start + i + j),
      updatedAt: new Date(start + i + j),
    }));
    const result = await strapi.db.query(COMMENT as never).createMany({ data: chunk });
    ids.push(...(result.ids as number[]));
  }
  const meta = strapi.db.metadata.get(COMMENT);
  const link = (attribute: string) => (meta.attributes[attribute] as any).joinTable;
  const articleRows = await strapi.db.query(ARTICLE as never).findMany({ where: { documentId: articleDocumentId }, select: ['id'] });
  const knex = strapi.db.connection;
  const insert = async (table: string, values: Record<string, number>[]) => {
    for (let i = 0; i < values.length; i += 300) await knex(table).insert(values.slice(i, i + 300));
  };
  const articleLink = link('article');
  await insert(
    articleLink.name,
    ids.flatMap((id) => articleRows.map((a: { id: number }) => ({ [articleLink.joinColumn.name]: id, [articleLink.inverseJoinColumn.name]: a.id })))
  );
  const parentLink = link('parent');
  await insert(
    parentLink.name,
    rows.flatMap((row, index) =>
      row.parentIndex === null ? [] : [{ [parentLink.joinColumn.name]: ids[index], [parentLink.inverseJoinColumn.name]: ids[row.parentIndex] }]
    )
  );
  return ids;
}

/** An admin panel token for a new admin user holding only the built-in role `roleCode` (e.g. `strapi-editor`). */
export async function adminTokenWithRole(app: TestApp, roleCode: string): Promise<string> {
  const role = await app.strapi.db.query('admin::role').findOne({ where: { code: roleCode } });
  if (!role) throw new Error(`no admin role ${roleCode}`);
  const email = `${roleCode}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const password = 'Editor-password-1';
  await app.strapi.service('admin::user').create({ email, firstname: 'Ed', lastname: 'Itor', password, isActive: true, roles: [role.id] });
  const res = await app.request().post('/admin/login').send({ email, password });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token ?? res.body.data.accessToken;
}
