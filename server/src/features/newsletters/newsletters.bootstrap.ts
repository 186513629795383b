/** Newsletters' start-up: the delivery loop, and a deleted account's subscriptions removed with it. */
import type { Core } from '@strapi/strapi';
import { getService } from '../../platform/get-service';

export const startNewsletters = (strapi: Core.Strapi) => {
  strapi.db.lifecycles.subscribe({
    models: ['plugin::users-permissions.user'],
    afterDelete: async (event) => {
      const id = (event.result as { id?: unknown } | undefined)?.id;
      if (typeof id === 'number') await getService(strapi, 'newsletter-subscriptions').forgetUser(id);
    },
  });
  getService(strapi, 'newsletter-delivery').start();
};
