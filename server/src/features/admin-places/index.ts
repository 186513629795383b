/** The admin's places (homepage widgets, the Content Manager's edit panel): what the wiring uses. */
export { default as adminPlacesController } from './admin-places.controller';
export { default as adminPlacesRoutes } from './admin-places.routes';
export { MODERATION_QUEUE_SIZE, MOST_READ_SIZE } from './admin-places.shapes';
export { default as editPanelService } from './edit-panel.service';
