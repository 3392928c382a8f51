// The users module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { userRoutes } from './users.routes.ts';
