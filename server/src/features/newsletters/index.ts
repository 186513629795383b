/** Newsletters (subscriptions, sends, delivery): what the wiring and other features use. */
export { default as adminNewslettersController } from './admin-newsletters.controller';
export { default as adminNewslettersRoutes } from './admin-newsletters.routes';
export { default as newsletterDeliveryService } from './delivery';
export { newsletterOnPublish } from './first-publication.document-middleware';
export { startNewsletters } from './newsletters.bootstrap';
export { default as newslettersController } from './newsletters.controller';
export { default as newslettersRoutes } from './newsletters.routes';
export { default as newsletterTokenMiddleware } from './newsletter-token.middleware';
export { default as newsletterSendsService } from './sends';
export { default as newsletterSubscriptionsService } from './subscriptions';
