// The address-activity webhooks module's face: what the rest of the server may use of it. Everything else in the folder is its own.

export { notifyRoutes } from './notify.routes.ts';
export type { Notify } from './notify.ts';
export { buildNotify } from './notify.ts';
