import type { Core } from '@strapi/strapi';

const destroy = (_: { strapi: Core.Strapi }) => {};

export default destroy;
