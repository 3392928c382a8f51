import { endpoint } from '../endpoint.ts';
import { AccountHeaders } from '../headers.ts';
import { ApiKeySettings, RollApiKeyBody, RolledApiKey, UpdateApiKeySettingsBody } from '../key-settings.ts';
import {
  ApiKey,
  ApiKeyList,
  ApiKeyListQuery,
  ApiKeyParams,
  CreateApiKeyBody,
  CreateApiKeyByNameBody,
  CreatedApiKey,
  UpdateApiKeyNameBody,
} from '../keys.ts';
import { Empty } from '../wrapper.ts';

const keyCall = { access: 'account', tag: 'keys', headers: AccountHeaders } as const;

/** The API key calls of spec A §7: any member of the account manages its keys. */
export const keyEndpoints = {
  list: endpoint({ ...keyCall, method: 'GET', path: '/api/v1.0/key', query: ApiKeyListQuery, response: ApiKeyList }),
  create: endpoint({
    ...keyCall,
    method: 'POST',
    path: '/api/v1.0/key/',
    body: CreateApiKeyBody,
    response: CreatedApiKey,
  }),
  /** The same create, as the account area issues it (spec A §7). */
  createByName: endpoint({
    ...keyCall,
    method: 'POST',
    path: '/api/v1.0/key',
    body: CreateApiKeyByNameBody,
    response: CreatedApiKey,
  }),
  rename: endpoint({
    ...keyCall,
    method: 'POST',
    path: '/api/v1.0/key/:apiKeyId/updateName',
    params: ApiKeyParams,
    body: UpdateApiKeyNameBody,
    response: ApiKey,
  }),
  activate: endpoint({
    ...keyCall,
    method: 'POST',
    path: '/api/v1.0/key/:apiKeyId/activate',
    params: ApiKeyParams,
    response: ApiKey,
  }),
  deactivate: endpoint({
    ...keyCall,
    method: 'POST',
    path: '/api/v1.0/key/:apiKeyId/deactivate',
    params: ApiKeyParams,
    response: ApiKey,
  }),
  remove: endpoint({
    ...keyCall,
    method: 'DELETE',
    path: '/api/v1.0/key/:apiKeyId',
    params: ApiKeyParams,
    response: Empty,
  }),
  /** A key's security settings (ours: docs/api.md "Locking a key down"). */
  settings: endpoint({
    ...keyCall,
    method: 'GET',
    path: '/api/v1.0/key/:apiKeyId/settings',
    params: ApiKeyParams,
    response: ApiKeySettings,
    summary: "A key's allowed origins, addresses, methods and contracts, its limits, JWT keys and expiry",
  }),
  updateSettings: endpoint({
    ...keyCall,
    method: 'POST',
    path: '/api/v1.0/key/:apiKeyId/settings',
    params: ApiKeyParams,
    body: UpdateApiKeySettingsBody,
    response: ApiKeySettings,
    summary: 'Changes any of them; a wrong entry is refused with a message naming it, and nothing changes',
  }),
  roll: endpoint({
    ...keyCall,
    method: 'POST',
    path: '/api/v1.0/key/:apiKeyId/roll',
    params: ApiKeyParams,
    body: RollApiKeyBody,
    response: RolledApiKey,
    summary: 'A new secret for the same key id, shown once; the old one stays valid for overlapSeconds',
  }),
};
