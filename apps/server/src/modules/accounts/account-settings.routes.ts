import { endpoints, Messages } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { noBody, ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import type { Secrets } from '../../secrets.ts';
import { type AccessDeps, addUser, removeUser } from './account-access.service.ts';
import {
  type RotationDeps,
  readSigningSecret,
  renameAccount,
  rotateSigningSecret,
} from './account-settings.service.ts';

/** What accountSettingsRoutes is built from (the composition root hands it in). */
export type AccountSettingsRoutesOptions = AccessDeps & RotationDeps & { secrets: Secrets };

/** The Settings page's calls (spec B §7): account name, signing secret, and who has access. */
export const accountSettingsRoutes: FastifyPluginAsyncTypebox<AccountSettingsRoutesOptions> = async (app, deps) => {
  const { db, secrets } = deps;
  const { rename, signingSecret, rotateSigningSecret: rotate, addUser: add, removeUser: remove } = endpoints.accounts;
  // docs/roles.md: renaming and managing people are the owner's; the guard refuses anyone else.
  const ownerRenames = { ownerOnly: Messages.ownerOnlyRename };
  const ownerManagesUsers = { ownerOnly: Messages.ownerOnlyUsers };
  const ownerRotates = { ownerOnly: Messages.ownerOnlySigningSecret };
  // The secret signs every webhook the account's wallets send: whoever holds it can forge them.
  const ownerReveals = { ownerOnly: Messages.ownerOnlyRevealSigningSecret };

  route(app, rename, { config: ownerRenames }, async (req) => {
    const account = await renameAccount(db, requireCaller(req), requireAccount(req), req.body.accountName);
    return ok(account, Messages.updatedName(account.name));
  });

  route(app, signingSecret, { config: ownerReveals }, async (req, reply) => {
    // A secret must not linger in a browser or proxy cache.
    reply.header('cache-control', 'no-store');
    return ok({ secret: await readSigningSecret(db, secrets.dataKey, requireAccount(req).id) });
  });

  route(app, rotate, { config: ownerRotates, preValidation: noBody }, async (req, reply) => {
    const rotated = await rotateSigningSecret(deps, requireCaller(req), requireAccount(req), req.log);
    reply.header('cache-control', 'no-store');
    return ok(rotated, Messages.signingSecretRotated);
  });

  route(app, add, { config: ownerManagesUsers }, async (req) => {
    const added = await addUser(deps, requireCaller(req), requireAccount(req), req.body.email, req.log);
    return ok(added, Messages.userAdded(added.email));
  });

  route(app, remove, { config: ownerManagesUsers }, async (req) => {
    await removeUser(db, requireCaller(req), requireAccount(req), req.params.userId);
    return ok({}, Messages.userRemoved);
  });
};
