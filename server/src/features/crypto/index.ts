/** Crypto helpers: what the wiring uses. */
export { default as cryptoController } from './crypto.controller';
export { default as cryptoRoutes } from './crypto.routes';
export { default as cryptoService } from './crypto.service';
