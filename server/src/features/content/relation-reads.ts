/**
 * The default populate of a page of documents, or of a detail's one document (an article's category, tags, cover and
 * author), read with one statement for every link table and one Query Engine read per target type, instead of the
 * host's populate: that one builds and maps a joined query per relation, which cost 3–4 ms of a 25-article page each
 * (about 7 of the page's 9 ms in the Document Service). The values are the host's own: the same rows, mapped by the
 * same Query Engine, in the same order (the link table's order column, as the host's populate sorts it), placed after
 * the document's fields in populate order as the host places them. A populate this cannot read the same way (nested,
 * filtered or sorted, a component, a relation without a plain link table) is left to the host: `plan` answers null.
 */
import type { Core, UID } from '@strapi/strapi';
import { readLinks, targetRows, type LinkTable } from './relation-links.data';
import { isRecord } from '../../platform/is-record';

type Row = Record<string, unknown>;

interface Step {
  name: string;
  target: string;
  toMany: boolean;
  /** The target's columns to read (`select`), or all of them. */
  select?: string[];
  link: LinkTable;
}

interface JoinColumn {
  name: string;
  referencedColumn: string;
}

interface MetaAttribute {
  type: string;
  relation?: string;
  target?: string;
  morphBy?: string;
  joinTable?: {
    name: string;
    joinColumn: JoinColumn;
    inverseJoinColumn?: JoinColumn;
    morphColumn?: { idColumn: JoinColumn; typeColumn: { name: string } };
    orderBy?: Record<string, string>;
    on?: Record<string, unknown>;
  };
}

const TO_ONE = new Set(['oneToOne', 'manyToOne']);
const TO_MANY = new Set(['oneToMany', 'manyToMany']);
/** Target rows one Query Engine read asks for (an `IN` list under SQLite's bound-parameter limit). */
const TARGET_CHUNK = 5_000;

/** The single ascending order column of a link table, '' for none, null for an order this does not reproduce. */
const orderColumn = (orderBy: Record<string, string> | undefined): string | null => {
  const entries = Object.entries(orderBy ?? {});
  if (entries.length === 0) return '';
  return entries.length === 1 && entries[0][1] === 'asc' ? entries[0][0] : null;
};

/** `fields` of a populate entry (`true`: all), null for a populate entry that asks for more than fields. */
const fieldsOf = (value: unknown): string[] | undefined | null => {
  if (value === true) return undefined;
  if (!isRecord(value) || Object.keys(value).some((key) => key !== 'fields')) return null;
  const fields = value.fields;
  return Array.isArray(fields) && fields.every((field) => typeof field === 'string') ? (fields as string[]) : null;
};

export const relationReads = (strapi: Core.Strapi) => {
  const plans = new Map<string, Step[] | null>();

  const stepOf = (uid: UID.ContentType, name: string, value: unknown): Step | null => {
    const fields = fieldsOf(value);
    if (fields === null) return null;
    const meta = strapi.db.metadata.get(uid);
    const attribute = meta.attributes[name] as MetaAttribute | undefined;
    if (!attribute || attribute.type !== 'relation' || !attribute.target) return null;
    const select = fields === undefined ? undefined : [...new Set(['id', 'documentId', ...fields])];
    const { relation = '', target } = attribute;
    if (TO_ONE.has(relation) || TO_MANY.has(relation)) {
      const joinTable = attribute.joinTable;
      const order = orderColumn(joinTable?.orderBy);
      if (!joinTable?.inverseJoinColumn || joinTable.on || order === null) return null;
      if (joinTable.joinColumn.referencedColumn !== 'id' || joinTable.inverseJoinColumn.referencedColumn !== 'id') return null;
      return {
        name,
        target,
        toMany: TO_MANY.has(relation),
        select,
        link: {
          table: joinTable.name,
          ownerColumn: joinTable.joinColumn.name,
          targetColumn: joinTable.inverseJoinColumn.name,
          ...(order ? { orderColumn: order } : {}),
        },
      };
    }
    if ((relation === 'morphOne' || relation === 'morphMany') && attribute.morphBy) {
      // A media field: the upload plugin's morph table links files to (owner type, owner id, field).
      const inverse = strapi.db.metadata.get(target).attributes[attribute.morphBy] as MetaAttribute | undefined;
      const joinTable = inverse?.relation === 'morphToMany' ? inverse.joinTable : undefined;
      const order = orderColumn(joinTable?.orderBy);
      if (!joinTable?.morphColumn || joinTable.on || order === null) return null;
      if (joinTable.morphColumn.idColumn.referencedColumn !== 'id' || joinTable.joinColumn.referencedColumn !== 'id') return null;
      return {
        name,
        target,
        toMany: relation === 'morphMany',
        select,
        link: {
          table: joinTable.name,
          ownerColumn: joinTable.morphColumn.idColumn.name,
          targetColumn: joinTable.joinColumn.name,
          ...(order ? { orderColumn: order } : {}),
          where: { field: name, [joinTable.morphColumn.typeColumn.name]: uid },
        },
      };
    }
    return null;
  };

  /** The steps that read `populate` of `uid` (kept per type and populate), or null when the host must populate it. */
  const plan = (uid: UID.ContentType, populate: Record<string, unknown>): Step[] | null => {
    const key = `${uid} ${JSON.stringify(populate)}`;
    if (!plans.has(key)) {
      const steps = Object.entries(populate).map(([name, value]) => stepOf(uid, name, value));
      plans.set(key, steps.every((step): step is Step => step !== null) ? steps : null);
    }
    return plans.get(key) ?? null;
  };

  const readTargets = async (target: string, ids: number[], select: string[] | undefined) => {
    const byId = new Map<number, Row>();
    for (let at = 0; at < ids.length; at += TARGET_CHUNK) {
      const rows = await targetRows(strapi, target, ids.slice(at, at + TARGET_CHUNK), select);
      for (const row of rows) byId.set(Number(row.id), row);
    }
    return byId;
  };

  /** Sets each document's relations of `steps` (in their order, after its fields), read as described above. */
  const populate = async (documents: Row[], steps: Step[]) => {
    const ownerIds = documents.map((document) => Number(document.id));
    const links = await readLinks(strapi, steps.map((step) => step.link), ownerIds);
    // One read per target type and selection, whatever number of relations lead to it.
    const wanted = new Map<string, { target: string; select?: string[]; ids: Set<number> }>();
    const keyOf = (step: Step) => `${step.target} ${step.select?.join(',') ?? '*'}`;
    steps.forEach((step, index) => {
      const entry = wanted.get(keyOf(step)) ?? { target: step.target, select: step.select, ids: new Set<number>() };
      for (const ids of links[index].values()) for (const id of ids) entry.ids.add(id);
      wanted.set(keyOf(step), entry);
    });
    const rows = new Map<string, Map<number, Row>>();
    for (const [key, { target, select, ids }] of wanted) rows.set(key, ids.size ? await readTargets(target, [...ids], select) : new Map());
    for (const document of documents) {
      steps.forEach((step, index) => {
        const byId = rows.get(keyOf(step)) ?? new Map<number, Row>();
        const found = (links[index].get(Number(document.id)) ?? []).flatMap((id): Row[] => {
          const row = byId.get(id);
          // Each document gets its own objects, as from the host's populate (the sanitizer may change them in place).
          return row ? [{ ...row }] : [];
        });
        const copies = found;
        document[step.name] = step.toMany ? copies : (copies[0] ?? null);
      });
    }
    return documents;
  };

  return { plan, populate };
};
