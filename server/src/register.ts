import type { Core } from '@strapi/strapi';
import { keepViewCounts } from './services/views';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  strapi.documents.use(keepViewCounts);
};

export default register;
