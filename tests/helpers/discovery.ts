/** Discovery test shortcuts: XML parsed by a real parser (well-formedness checked first), and published documents per locale. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Core } from '@strapi/strapi';

/** Elements that may repeat, always parsed as arrays. */
const LISTS = new Set(['item', 'entry', 'category', 'url', 'sitemap', 'xhtml:link', 'image:image', 'link']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => LISTS.has(name),
});

/** The parsed document; throws when it is not well-formed XML. */
export const parseXml = (text: string): any => {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid.err)}`);
  return parser.parse(text);
};

/** Text of an element parsed with attributes (`{ '#text': … }`) or without. */
export const text = (node: unknown): string =>
  typeof node === 'object' && node !== null ? String((node as Record<string, unknown>)['#text'] ?? '') : String(node ?? '');

export type Doc = { id: number; documentId: string; locale?: string };

/**
 * A document with a version per locale of `versions` (data per locale); each is published unless its locale is in
 * `draftOnly`. Types without draft & publish ignore `draftOnly`.
 */
export async function localizedDocument(
  strapi: Core.Strapi,
  uid: string,
  versions: Record<string, Record<string, unknown>>,
  draftOnly: string[] = []
): Promise<Doc> {
  const documents = strapi.documents(uid as never);
  const publishable = Boolean((strapi.getModel(uid as never) as { options?: { draftAndPublish?: boolean } }).options?.draftAndPublish);
  let doc: Doc | undefined;
  for (const [locale, data] of Object.entries(versions)) {
    doc = doc
      ? ((await documents.update({ documentId: doc.documentId, locale, data } as never)) as Doc)
      : ((await documents.create({ locale, data } as never)) as Doc);
    if (publishable && !draftOnly.includes(locale)) await documents.publish({ documentId: doc.documentId, locale } as never);
  }
  return doc!;
}

/** Sets the published row's publication time, so ordering does not depend on how fast the setup ran. */
export const setPublishedAt = (strapi: Core.Strapi, uid: string, documentId: string, iso: string, locale?: string) =>
  strapi.db
    .query(uid as never)
    .updateMany({ where: { documentId, ...(locale ? { locale } : {}), publishedAt: { $notNull: true } }, data: { publishedAt: new Date(iso) } });
