// The alerts module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { checkAlerts } from './alerts.job.ts';
export { alertRoutes } from './alerts.routes.ts';
