import type { Core } from '@strapi/strapi';

const controller = (_: { strapi: Core.Strapi }) => ({});

export default controller;
