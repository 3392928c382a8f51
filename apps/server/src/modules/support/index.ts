// The support module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { supportRoutes } from './support.routes.ts';
export { SupportService } from './support.service.ts';
