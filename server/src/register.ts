import type { Core } from '@strapi/strapi';

const register = (_: { strapi: Core.Strapi }) => {};

export default register;
