// The dev module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { devRoutes } from './dev.routes.ts';
