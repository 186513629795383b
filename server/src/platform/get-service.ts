import type { Core } from '@strapi/strapi';
import type services from '../services';
import { PLUGIN_ID } from './plugin-id';

type Services = { [K in keyof typeof services]: ReturnType<(typeof services)[K]> };

/** The plugin's service `name`, typed. */
export const getService = <K extends keyof Services>(strapi: Core.Strapi, name: K): Services[K] =>
  strapi.plugin(PLUGIN_ID).service(name) as Services[K];
