import type { Core } from '@strapi/strapi';
import { getService } from './platform/get-service';

const destroy = async ({ strapi }: { strapi: Core.Strapi }) => {
  await getService(strapi, 'purge').stop();
  await getService(strapi, 'readers').stop();
  await getService(strapi, 'newsletter-delivery').stop();
  await getService(strapi, 'newsletter-subscriptions').idle();
  await getService(strapi, 'comment-notifications').stop();
  await getService(strapi, 'comment-events').idle();
  await getService(strapi, 'credential-alerts').idle();
};

export default destroy;
