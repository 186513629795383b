/**
 * The match of a search as each database takes it (docs/search.md#what-q-may-contain), built from words that are
 * only letters, digits and marks (./query-text) and candidate words from the index's own vocabulary (./typos.data):
 * nothing the user typed reaches a query parser as syntax.
 */
export interface MatchWord {
  text: string;
  /** Words within the typo budget (exact hits rank first). */
  candidates: string[];
  prefix: boolean;
}

export interface Terms {
  words: MatchWord[];
  phrases: string[][];
  excluded: string[];
}

export const hasCandidates = (terms: Terms) => terms.words.some((word) => word.candidates.length > 0);
/** The same terms without typo candidates: what an exact hit matches. */
export const exactOf = (terms: Terms): Terms => ({ ...terms, words: terms.words.map((word) => ({ ...word, candidates: [] })) });

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;
const any = (alternatives: string[], or: string) => (alternatives.length > 1 ? `(${alternatives.join(or)})` : alternatives[0]);

/** An FTS5 MATCH expression: each word (or its candidates; the last also as a prefix), phrases, `NOT` the exclusions. */
export const sqliteMatch = (terms: Terms): string => {
  const positive = [
    ...terms.words.map((word) => any([`${quoted(word.text)}${word.prefix ? '*' : ''}`, ...word.candidates.map(quoted)], ' OR ')),
    ...terms.phrases.map((phrase) => quoted(phrase.join(' '))),
  ].join(' AND ');
  return terms.excluded.length ? `(${positive}) NOT (${terms.excluded.map(quoted).join(' OR ')})` : positive;
};

/**
 * A PostgreSQL tsquery expression with its bindings: `plainto_tsquery` per word and candidate (OR), `to_tsquery` of
 * `word:*` for the prefix, `phraseto_tsquery` per phrase, `!!` per exclusion, all AND. Immutable with constant
 * arguments, so the planner folds it into a constant the GIN index serves.
 */
export const postgresMatch = (terms: Terms, locale: string): { sql: string; bindings: unknown[] } => {
  const bindings: unknown[] = [];
  const call = (fn: string, text: string) => {
    bindings.push(locale, text);
    return `${fn}(bag_search_config(?), ?)`;
  };
  const parts = [
    ...terms.words.map((word) =>
      any(
        [
          call('plainto_tsquery', word.text),
          ...(word.prefix ? [call('to_tsquery', `${word.text}:*`)] : []),
          ...word.candidates.map((candidate) => call('plainto_tsquery', candidate)),
        ],
        ' || ',
      ),
    ),
    ...terms.phrases.map((phrase) => call('phraseto_tsquery', phrase.join(' '))),
    ...terms.excluded.map((word) => `!! ${call('plainto_tsquery', word)}`),
  ];
  return { sql: `(${parts.join(' && ')})`, bindings };
};
