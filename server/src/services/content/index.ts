/** The `content` service: public reads (reads.ts) with their query checks and populate policy. */
export { default, DETAILS, type ContentService, type DetailKind, type ListOptions, type ReadOptions, type ViewCounter } from './reads';
