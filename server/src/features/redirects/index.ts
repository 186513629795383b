/** Redirects (old slugs and the editors' redirects): what the wiring and other features use. */
export { redirectRules } from './redirect-rules.document-middleware';
export { isPath as isRedirectPath } from './redirect-rules';
export { default as redirectsController } from './redirects.controller';
export { answerMoved } from './redirects.controller';
export { publishedWithSlugs } from './redirects.data';
export { default as redirectsService } from './redirects.service';
export { normalizePath } from './redirects.service';
export { slugHistory } from './slug-history.document-middleware';
