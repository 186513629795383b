/** Admin settings (the settings store itself is platform/settings.ts): what the wiring uses. */
export { default as settingsController } from './settings.controller';
export { default as settingsRoutes } from './settings.routes';
