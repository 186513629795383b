/** Import from WordPress and Disqus (docs/import.md): what the wiring and the command line use. */
export { default as importsController } from './imports.controller';
export { default as importsRoutes } from './imports.routes';
export { default as importsService } from './imports.service';
export type { ImportReport, ImportsService, StartOptions } from './imports.service';
