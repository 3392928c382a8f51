import {
  AccountHeaders,
  AccountSummary,
  AddUserBody,
  AddUserResult,
  Empty,
  Messages,
  RemoveUserParams,
  RotatedSigningSecret,
  SigningSecret,
  UpdateAccountNameBody,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { noBody, ok, responses } from '../../http/reply.ts';
import { addUser, removeUser } from './account-access.service.ts';
import { readSigningSecret, renameAccount, rotateSigningSecret } from './account-settings.service.ts';

/** The Settings page's calls (spec B §7): account name, signing secret, and who has access. */
export const accountSettingsRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, deps) => {
  const { db, secrets } = deps;
  const tags = ['account settings'];
  const config = { accountScoped: true };
  // docs/roles.md: renaming and managing people are the owner's; the guard refuses anyone else.
  const ownerRenames = { accountScoped: true, ownerOnly: Messages.ownerOnlyRename };
  const ownerManagesUsers = { accountScoped: true, ownerOnly: Messages.ownerOnlyUsers };
  const ownerRotates = { accountScoped: true, ownerOnly: Messages.ownerOnlySigningSecret };

  app.post(
    '/api/v1.0/account/updateAccountName',
    {
      config: ownerRenames,
      schema: { tags, headers: AccountHeaders, body: UpdateAccountNameBody, response: responses(AccountSummary) },
    },
    async (req) => {
      const account = await renameAccount(db, requireCaller(req), requireAccount(req), req.body.accountName);
      return ok(account, Messages.updatedName(account.name));
    },
  );

  app.get(
    '/api/v1.0/account/signing-secret',
    { config, schema: { tags, headers: AccountHeaders, response: responses(SigningSecret) } },
    async (req, reply) => {
      // A secret must not linger in a browser or proxy cache.
      reply.header('cache-control', 'no-store');
      return ok({ secret: await readSigningSecret(db, secrets.dataKey, requireAccount(req).id) });
    },
  );

  app.post(
    '/api/v1.0/account/signing-secret/rotate',
    {
      config: ownerRotates,
      preValidation: noBody,
      schema: { tags, headers: AccountHeaders, response: responses(RotatedSigningSecret) },
    },
    async (req, reply) => {
      const rotated = await rotateSigningSecret(deps, requireCaller(req), requireAccount(req), req.log);
      reply.header('cache-control', 'no-store');
      return ok(rotated, Messages.signingSecretRotated);
    },
  );

  app.post(
    '/api/v1.0/account/user',
    {
      config: ownerManagesUsers,
      schema: { tags, headers: AccountHeaders, body: AddUserBody, response: responses(AddUserResult) },
    },
    async (req) => {
      const added = await addUser(deps, requireCaller(req), requireAccount(req), req.body.email, req.log);
      return ok(added, Messages.userAdded(added.email));
    },
  );

  app.delete(
    '/api/v1.0/account/:userId',
    {
      config: ownerManagesUsers,
      schema: { tags, headers: AccountHeaders, params: RemoveUserParams, response: responses(Empty) },
    },
    async (req) => {
      await removeUser(db, requireCaller(req), requireAccount(req), req.params.userId);
      return ok({}, Messages.userRemoved);
    },
  );
};
