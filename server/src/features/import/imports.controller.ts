/** `POST /cms-plugin-bag/imports` (multipart `file`, `source`, `dryRun`) → 202, and `GET /cms-plugin-bag/imports/:id` (docs/import.md#admin). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { fieldError } from '../../platform/errors';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { keepUpload } from './imports.service';
import { importByIdRequest, importCreateRequest } from './imports.shapes';

type Upload = { filepath?: string };

const importsController = ({ strapi }: { strapi: Core.Strapi }) => ({
  create: checked(importCreateRequest, async (ctx: Context, { body }) => {
    const files = (ctx.request as unknown as { files?: Record<string, Upload | Upload[]> }).files;
    const upload = files?.file;
    const one = Array.isArray(upload) ? (upload.length === 1 ? upload[0] : undefined) : upload;
    if (!one?.filepath) throw fieldError('file', 'is required', 'file is required');
    const file = await keepUpload(one.filepath);
    const { row, done } = await getService(strapi, 'imports').start(file, { source: body.source, dryRun: body.dryRun === 'true', owned: true });
    done.catch(() => undefined);
    ctx.status = 202;
    ctx.body = { data: { id: row.id, status: row.status } };
  }),
  findOne: checked(importByIdRequest, async (ctx: Context, { params }) => {
    const row = await getService(strapi, 'imports').find(Number(params.id));
    if (!row) throw new errors.NotFoundError('Import not found');
    ctx.body = { data: { ...row, dryRun: Boolean(row.dryRun), counts: row.counts ?? {}, skipped: row.skipped ?? [], error: row.error ?? null } };
  }),
});

export default importsController;
