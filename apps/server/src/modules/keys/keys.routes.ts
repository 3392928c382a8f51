import {
  AccountHeaders,
  ApiKey,
  ApiKeyList,
  ApiKeyListQuery,
  ApiKeyParams,
  CreateApiKeyBody,
  CreateApiKeyByNameBody,
  CreatedApiKey,
  Messages,
  UpdateApiKeyNameBody,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { Empty, noBody, ok, responses } from '../../http/reply.ts';
import { checkKeyName } from './keys.service.ts';

/**
 * Runs before the schema, so a missing, blank or too long name gets the spec's own text rather
 * than the schema's wording, and the name the schema and the service see is already trimmed.
 */
const keyNameRule =
  (field: 'apiKeyName' | 'name', requiredMessage: string) =>
  async (request: FastifyRequest): Promise<void> => {
    const body = request.body;
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const name = checkKeyName(fields[field], requiredMessage);
    (body as Record<string, unknown>)[field] = name;
  };

/** The API key calls of spec A §7: any member of the account manages its keys. */
export const keyRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { keys }) => {
  const tags = ['keys'];
  const scoped = { accountScoped: true };

  app.get(
    '/api/v1.0/key',
    {
      config: scoped,
      schema: { tags, headers: AccountHeaders, querystring: ApiKeyListQuery, response: responses(ApiKeyList) },
    },
    async (req) => ok(await keys.list(requireAccount(req).id, req.query)),
  );

  app.post(
    '/api/v1.0/key/',
    {
      config: scoped,
      preValidation: keyNameRule('apiKeyName', Messages.apiKeyNameRequired),
      schema: { tags, headers: AccountHeaders, body: CreateApiKeyBody, response: responses(CreatedApiKey) },
    },
    async (req) => {
      const created = await keys.create(requireAccount(req).id, requireCaller(req).userId, req.body.apiKeyName);
      return ok(created, Messages.createdName(created.name));
    },
  );

  // The same create, as the account area issues it (spec A §7).
  app.post(
    '/api/v1.0/key',
    {
      config: scoped,
      preValidation: keyNameRule('name', Messages.apiKeyNameRequired),
      schema: { tags, headers: AccountHeaders, body: CreateApiKeyByNameBody, response: responses(CreatedApiKey) },
    },
    async (req) => {
      const created = await keys.create(requireAccount(req).id, requireCaller(req).userId, req.body.name);
      return ok(created, Messages.createdName(created.name));
    },
  );

  app.post(
    '/api/v1.0/key/:apiKeyId/updateName',
    {
      config: scoped,
      preValidation: keyNameRule('apiKeyName', Messages.apiKeyNameRequiredOnUpdate),
      schema: {
        tags,
        headers: AccountHeaders,
        params: ApiKeyParams,
        body: UpdateApiKeyNameBody,
        response: responses(ApiKey),
      },
    },
    async (req) => {
      const key = await keys.rename(requireAccount(req).id, req.params.apiKeyId, req.body.apiKeyName);
      return ok(key, Messages.updatedName(key.name));
    },
  );

  const withoutBody = { tags, headers: AccountHeaders, params: ApiKeyParams };

  app.post(
    '/api/v1.0/key/:apiKeyId/activate',
    { config: scoped, preValidation: noBody, schema: { ...withoutBody, response: responses(ApiKey) } },
    async (req) => ok(await keys.activate(requireAccount(req).id, req.params.apiKeyId), Messages.apiKeyActivated),
  );

  app.post(
    '/api/v1.0/key/:apiKeyId/deactivate',
    { config: scoped, preValidation: noBody, schema: { ...withoutBody, response: responses(ApiKey) } },
    async (req) => ok(await keys.deactivate(requireAccount(req).id, req.params.apiKeyId), Messages.apiKeyDeactivated),
  );

  app.delete(
    '/api/v1.0/key/:apiKeyId',
    { config: scoped, preValidation: noBody, schema: { ...withoutBody, response: responses(Empty) } },
    async (req) => {
      await keys.remove(requireAccount(req).id, req.params.apiKeyId);
      return ok({}, Messages.apiKeyDeleted);
    },
  );
};
