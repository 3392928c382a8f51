// The settings module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { settingRoutes } from './settings.routes.ts';
export { cardMandatory, findSetting, saveSetting } from './settings.service.ts';
