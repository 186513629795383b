/**
 * The one import the admin route and the command line both run (docs/import.md): the file's format is checked
 * before anything is recorded (400 `Unsupported XML: DOCTYPE`, 400 `Unrecognised export file`), then the run is
 * recorded `queued`, counted, and streamed through its mapping with its progress saved as it goes. The admin route
 * answers at once and the run goes on outside the request; the command line awaits it.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { countRecords, readRecords, sniffExport, UNRECOGNISED, type ExportSource } from './xml-records';
import { createImportRun, emptyCounts } from './import-run';
import { createWordpressImport } from './wordpress';
import { createDisqusImport } from './disqus';
import { articleByPath } from './article-paths';
import * as data from './import.data';

export type ImportReport = data.ImportRow;

const SAVE_EVERY_MS = 500;

export interface StartOptions {
  /** The format the caller says the file is in; checked against the file. */
  source?: ExportSource;
  dryRun?: boolean;
  /** The file is the import's own (an upload moved aside): removed when the run ends. */
  owned?: boolean;
  /** Hears the run's progress (the command line prints it). */
  onProgress?: (processed: number, total: number) => void;
}

/** An upload moved out of the host's reach (the body middleware removes its files once the request is answered). */
export const keepUpload = async (file: string): Promise<string> => {
  const kept = path.join(os.tmpdir(), `bag-import-${crypto.randomBytes(8).toString('hex')}.xml`);
  try {
    await fs.promises.rename(file, kept);
  } catch {
    await fs.promises.copyFile(file, kept);
  }
  return kept;
};

const imports = ({ strapi }: { strapi: Core.Strapi }) => {
  const execute = async (id: number, file: string, source: ExportSource, options: StartOptions) => {
    const dryRun = options.dryRun ?? false;
    const run = await createImportRun(strapi, dryRun).init();
    let processed = 0;
    let total = 0;
    let savedAt = Date.now();
    const report = () => ({ processed, total, counts: run.counts, skipped: run.skipped });
    try {
      await data.updateImport(strapi, id, { status: 'running' });
      total = await countRecords(file, source);
      await data.updateImport(strapi, id, { total });
      const mapping = source === 'wordpress' ? createWordpressImport(run) : createDisqusImport(run, articleByPath(strapi));
      await readRecords(file, source, async (node) => {
        // One transaction per record: an item, its comments, redirects and source keys are written together or not
        // at all (a run that dies goes on from the last whole item), and SQLite commits once per item.
        if (!(await strapi.db.transaction(() => mapping.record(node)))) return;
        processed += 1;
        if (Date.now() - savedAt >= SAVE_EVERY_MS) {
          savedAt = Date.now();
          options.onProgress?.(processed, total);
          await data.updateImport(strapi, id, { processed, counts: run.counts });
        }
      });
      await strapi.db.transaction(() => mapping.finish());
      options.onProgress?.(processed, total);
      await data.updateImport(strapi, id, { ...report(), status: 'done' });
    } catch (error) {
      strapi.log.error(`[cms-plugin-bag] import ${id} failed: ${(error as Error).message}`);
      await data.updateImport(strapi, id, { ...report(), status: 'failed', error: (error as Error).message });
    } finally {
      if (options.owned) await fs.promises.rm(file, { force: true });
    }
    return data.importById(strapi, id) as Promise<ImportReport>;
  };

  return {
    /**
     * Checks and records an import of `file`; `done` settles when it has run. The run happens outside any request
     * context, so the writes are not the uploader's (no client IP, no Content Manager rules).
     */
    async start(file: string, options: StartOptions = {}): Promise<{ row: ImportReport; done: Promise<ImportReport> }> {
      let source: ExportSource;
      try {
        source = await sniffExport(file);
        if (options.source && options.source !== source) throw new errors.ValidationError(UNRECOGNISED);
      } catch (error) {
        if (options.owned) await fs.promises.rm(file, { force: true });
        throw error;
      }
      const row = await data.insertImport(strapi, { source, dryRun: options.dryRun ?? false, counts: emptyCounts() });
      const done = new Promise<ImportReport>((resolve, reject) => {
        void strapi.requestContext.run(undefined as never, async () => {
          await execute(row.id, file, source, options).then(resolve, reject);
        });
      });
      return { row, done };
    },

    find: (id: number) => data.importById(strapi, id),
  };
};

export default imports;
export type ImportsService = ReturnType<typeof imports>;
