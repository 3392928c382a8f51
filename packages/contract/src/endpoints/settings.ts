import { endpoint } from '../endpoint.ts';
import { Setting, SettingQuery } from '../settings.ts';

/** The operator settings read by the console. */
export const settingEndpoints = {
  /** One operator setting, by name. */
  read: endpoint({
    access: 'user',
    tag: 'settings',
    method: 'GET',
    path: '/api/v1.0/setting',
    query: SettingQuery,
    response: Setting,
  }),
};
