/**
 * An export file read as a stream with saxes (docs/import.md#reading): the records a mapping needs (a WXR's
 * `wp:author`, `wp:category`, `wp:tag`, `wp:term`, `wp:base_blog_url` and each `item` with its comments; a Disqus export's
 * `category`, `thread` and `post`) are handed over one at a time as small element trees, and the next chunk of
 * the file is read only once they have been written. A DOCTYPE (and so any entity declaration) is refused, no
 * entity is expanded beyond XML's five, nothing is fetched.
 */
import fs from 'fs';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { errors } from '@strapi/utils';

export const DOCTYPE_REFUSED = 'Unsupported XML: DOCTYPE';
export const UNRECOGNISED = 'Unrecognised export file';

export type ExportSource = 'wordpress' | 'disqus';

/** One element of a record: its attributes, its text (CDATA included) and its child elements. */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlNode[];
}

const CHUNK = 256 * 1024;

/** The records of each format: elements at this depth (the root is 1) with one of these names. */
const RECORDS: Record<ExportSource, { depth: number; names: Set<string> }> = {
  wordpress: { depth: 3, names: new Set(['item', 'wp:author', 'wp:category', 'wp:tag', 'wp:term', 'wp:base_blog_url']) },
  disqus: { depth: 2, names: new Set(['category', 'thread', 'post']) },
};

const refused = (message: string) => new errors.ValidationError(message);

/** The format of a root element: a WXR (`rss` declaring WordPress's export namespace) or a Disqus export. */
const formatOf = (tag: SaxesTagPlain): ExportSource | null => {
  if (tag.name === 'disqus') return 'disqus';
  const wp = tag.attributes['xmlns:wp'];
  if (tag.name === 'rss' && typeof wp === 'string' && /^https?:\/\/wordpress\.org\/export\//.test(wp)) return 'wordpress';
  return null;
};

const newParser = () => {
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('doctype', () => {
    throw refused(DOCTYPE_REFUSED);
  });
  return parser;
};

/**
 * The file's format, read up to its root element only (a DOCTYPE stands before it): 400 `Unsupported XML: DOCTYPE`
 * or 400 `Unrecognised export file` (not XML, or neither format).
 */
export const sniffExport = async (file: string): Promise<ExportSource> => {
  const parser = newParser();
  let format: ExportSource | null | undefined;
  parser.on('opentag', (tag) => {
    if (format === undefined) format = formatOf(tag as SaxesTagPlain);
  });
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 16 * 1024 });
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string);
      if (format !== undefined) break;
    }
  } catch (error) {
    if (error instanceof errors.ValidationError) throw error;
    throw refused(UNRECOGNISED);
  } finally {
    stream.destroy();
  }
  if (!format) throw refused(UNRECOGNISED);
  return format;
};

/**
 * Reads `file` as `source`, calling `onRecord` with each record in document order and awaiting it before the next
 * chunk is parsed; `onChunk` hears the bytes read so far.
 */
export const readRecords = async (
  file: string,
  source: ExportSource,
  onRecord: (record: XmlNode) => Promise<void>,
  onChunk: (bytes: number) => void = () => undefined,
): Promise<void> => {
  const { depth: recordDepth, names } = RECORDS[source];
  const parser = newParser();
  const open: XmlNode[] = [];
  const ready: XmlNode[] = [];
  let depth = 0;
  let root = true;
  parser.on('opentag', (tag) => {
    depth += 1;
    if (root) {
      root = false;
      if (formatOf(tag as SaxesTagPlain) !== source) throw refused(UNRECOGNISED);
    }
    if (open.length > 0 || (depth === recordDepth && names.has(tag.name))) {
      const node: XmlNode = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: '', children: [] };
      open.at(-1)?.children.push(node);
      open.push(node);
    }
  });
  const addText = (text: string) => {
    const node = open.at(-1);
    if (node) node.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    depth -= 1;
    const node = open.pop();
    if (node && open.length === 0) ready.push(node);
  });
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK });
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string);
      bytes += Buffer.byteLength(chunk as string);
      while (ready.length > 0) await onRecord(ready.shift() as XmlNode);
      onChunk(bytes);
    }
    parser.close();
    while (ready.length > 0) await onRecord(ready.shift() as XmlNode);
  } finally {
    stream.destroy();
  }
};

/** Counts the records a run goes through (items of a WXR, threads and posts of a Disqus export), for the progress. */
export const countRecords = async (file: string, source: ExportSource): Promise<number> => {
  const { depth: recordDepth, names } = RECORDS[source];
  const counted = source === 'wordpress' ? new Set(['item']) : new Set(['thread', 'post']);
  const parser = newParser();
  let depth = 0;
  let total = 0;
  parser.on('opentag', (tag) => {
    depth += 1;
    if (depth === recordDepth && names.has(tag.name) && counted.has(tag.name)) total += 1;
  });
  parser.on('closetag', () => {
    depth -= 1;
  });
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK });
  try {
    for await (const chunk of stream) parser.write(chunk as string);
    parser.close();
  } finally {
    stream.destroy();
  }
  return total;
};

/** The first child element named `name`. */
export const child = (node: XmlNode | undefined, name: string): XmlNode | undefined => node?.children.find((c) => c.name === name);

/** The trimmed text of the first child named `name` ('' when absent). */
export const textOf = (node: XmlNode | undefined, name: string): string => child(node, name)?.text.trim() ?? '';

/** The children named `name`. */
export const childrenOf = (node: XmlNode, name: string): XmlNode[] => node.children.filter((c) => c.name === name);
