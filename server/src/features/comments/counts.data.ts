/** The SQL of visible comment counts for many articles at once (features/comments/counts.ts). */
import type { Core } from '@strapi/strapi';
import { commentSchema, rowsOf, type RawRow } from './tables.data';

/**
 * Visible comments (approved, every ancestor approved; a deleted one kept for its replies not counted) per published
 * article, in ONE statement: the article rows named by documentId, row id or slug (docs/readers.md), the approved comments linked to them, a recursive walk down from the approved
 * roots through approved replies, and a GROUP BY. One row (`id`, `document_id`, `count`) per named article row.
 * The walk is a UNION, not UNION ALL: a comment left with two parent links by racing edits can close a cycle below
 * a root, and UNION drops the repeated row so the walk ends.
 */
export const visibleCountRows = async (strapi: Core.Strapi, documentIds: string[], numericIds: number[], slugs: string[] = []): Promise<RawRow[]> => {
  const s = commentSchema(strapi);
  const list = (values: unknown[]) => (values.length === 0 ? 'null' : values.map(() => '?').join(', '));
  const docId = s.articleColumn('documentId');
  const sql = `
        with recursive
        named as (
          select id, ?? as document_id, ?? as slug from ?? where ?? in (${list(documentIds)}) or id in (${list(numericIds)}) or ?? in (${list(slugs)})
        ),
        article_rows as (
          select a.id, a.?? as document_id from ?? a
          where a.?? in (select document_id from named)
            and a.?? in (select b.?? from ?? b where b.?? is not null and b.?? in (select document_id from named))
        ),
        approved as (
          select distinct l.?? as id, r.document_id, c.?? as gone from ?? l
          join article_rows r on r.id = l.??
          join ?? c on c.id = l.??
          where c.?? = ?
        ),
        visible(id, document_id, gone) as (
          select ap.id, ap.document_id, ap.gone from approved ap
          where not exists (select 1 from ?? p where p.?? = ap.id)
          union
          select ap.id, ap.document_id, ap.gone from approved ap
          join ?? p on p.?? = ap.id
          join visible v on v.id = p.?? and v.document_id = ap.document_id
        )
        select n.id, n.document_id, n.slug, count(case when coalesce(v.gone, false) = false then v.id end) as count
        from named n left join visible v on v.document_id = n.document_id
        group by n.id, n.document_id, n.slug`;
  const bindings = [
    docId, s.articleColumn('slug'), s.articles, docId, ...documentIds, ...numericIds, s.articleColumn('slug'), ...slugs,
    docId, s.articles,
    docId,
    docId, docId, s.articles, s.articleColumn('publishedAt'), docId,
    s.articleLink.comment, s.commentColumn('deleted'), s.articleLink.table,
    s.articleLink.target,
    s.comments, s.articleLink.comment,
    s.commentColumn('status'), 'approved',
    s.parentLink.table, s.parentLink.comment,
    s.parentLink.table, s.parentLink.comment,
    s.parentLink.target,
  ];
  return rowsOf(await strapi.db.connection.raw(sql, bindings));
};
