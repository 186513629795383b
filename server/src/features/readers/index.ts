/** Readers (views by day, the beacon, popular and related articles, JSON-LD): what the wiring and other features use. */
export { default as readersController } from './readers.controller';
export { default as readersRoutes } from './readers.routes';
export { default as readersService } from './readers.service';
export { default as beaconBodyMiddleware, BEACON_BODY } from './beacon-body.middleware';
