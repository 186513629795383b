/** What the generated (shadow CRUD) schema may show of the plugin's types, and the host's auth mutations' guard. */
import type { Core } from '@strapi/strapi';

export const restrictGeneratedSchema = (_strapi: Core.Strapi): void => {};
