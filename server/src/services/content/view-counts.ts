/**
 * `views` is one counter per document: services/content/views.ts adds each read to every row of the document (all locales,
 * draft and published). A locale version created later (Content Manager, `documents(uid).update({ documentId,
 * locale, data })`) starts with the schema's default, so it is set to the count the document's other rows hold.
 */
import type { Core, UID } from '@strapi/strapi';
import { tableOf } from '../../utils/columns';

/** Whether the document has a version (draft or published) in `locale` yet. */
export const hasLocaleVersion = async (strapi: Core.Strapi, uid: UID.ContentType, documentId: string, locale: string) =>
  (await strapi.db.query(uid).count({ where: { documentId, locale } })) > 0;

/**
 * Sets the rows of the document's `locale` version to the highest count of its other rows, in one statement (a read
 * counted meanwhile reaches every row, the new ones included, so the maximum includes it).
 */
export const alignLocaleViews = async (strapi: Core.Strapi, uid: UID.ContentType, documentId: string, locale: string) => {
  const { table, column } = tableOf(strapi, uid);
  const knex = strapi.db.connection;
  const views = column('views');
  const others = knex(`${table} as o`)
    .max(`o.${views}`)
    .where(`o.${column('documentId')}`, documentId)
    .whereNot(`o.${column('locale')}`, locale);
  await knex(table)
    .where(column('documentId'), documentId)
    .where(column('locale'), locale)
    .update({ [views]: knex.raw('coalesce((?), ??)', [others, views]) });
};
