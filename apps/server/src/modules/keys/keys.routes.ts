import { endpoints, Messages } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { noBody, ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import type { KeysService } from './keys.service.ts';
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

/** What keyRoutes is built from (the composition root hands it in). */
export interface KeyRoutesOptions {
  keys: KeysService;
}

/** The API key calls of spec A §7: any member of the account manages its keys. */
export const keyRoutes: FastifyPluginAsyncTypebox<KeyRoutesOptions> = async (app, { keys }) => {
  const { list, create, createByName, rename, activate, deactivate, remove, settings, updateSettings, roll } =
    endpoints.keys;

  route(app, list, {}, async (req) => ok(await keys.list(requireAccount(req).id, req.query)));

  route(app, create, { preValidation: keyNameRule('apiKeyName', Messages.apiKeyNameRequired) }, async (req) => {
    const created = await keys.create(requireAccount(req).id, requireCaller(req).userId, req.body.apiKeyName);
    return ok(created, Messages.createdName(created.name));
  });

  route(app, createByName, { preValidation: keyNameRule('name', Messages.apiKeyNameRequired) }, async (req) => {
    const created = await keys.create(requireAccount(req).id, requireCaller(req).userId, req.body.name);
    return ok(created, Messages.createdName(created.name));
  });

  route(app, rename, { preValidation: keyNameRule('apiKeyName', Messages.apiKeyNameRequiredOnUpdate) }, async (req) => {
    const key = await keys.rename(requireAccount(req).id, req.params.apiKeyId, req.body.apiKeyName);
    return ok(key, Messages.updatedName(key.name));
  });

  route(app, activate, { preValidation: noBody }, async (req) =>
    ok(await keys.activate(requireAccount(req).id, req.params.apiKeyId), Messages.apiKeyActivated),
  );

  route(app, deactivate, { preValidation: noBody }, async (req) =>
    ok(await keys.deactivate(requireAccount(req).id, req.params.apiKeyId), Messages.apiKeyDeactivated),
  );

  route(app, remove, { preValidation: noBody }, async (req) => {
    await keys.remove(requireAccount(req).id, req.params.apiKeyId);
    return ok({}, Messages.apiKeyDeleted);
  });

  route(app, settings, {}, async (req) => ok(await keys.settings(requireAccount(req).id, req.params.apiKeyId)));

  route(app, updateSettings, {}, async (req) =>
    ok(await keys.updateSettings(requireAccount(req).id, req.params.apiKeyId, req.body), Messages.apiKeySettingsSaved),
  );

  route(app, roll, {}, async (req) =>
    ok(await keys.roll(requireAccount(req).id, req.params.apiKeyId, req.body.overlapSeconds), Messages.apiKeyRolled),
  );
};
