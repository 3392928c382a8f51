import { badRequest, endpoints, forbidden, ForwardingMessages as M, type WalletStatus } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { parseNameList } from '../../http/query.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { accountAndUserChecks, enforce, perMinuteAndDay, type RateRule } from '../../http/rate-limit.ts';
import { noBody, ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { isFeatureEnabled } from '../accounts/index.ts';
import type { Forwarding } from './forwarding.ts';
import { forwardingWalletRules, requiredFields } from './forwarding-rules.ts';

const STATUSES = new Set(['ENABLED', 'DISABLED']);
/** A test webhook is a request to an address the caller picks: few, so the console is no one's flooding tool. */
const WEBHOOK_TESTS = perMinuteAndDay(10, 200);
/** Contract reads and balance refreshes call the network's node, which the usage bill does not meter. */
const CHAIN_READS = perMinuteAndDay(30, 1000);

/** What forwardingRoutes is built from (the composition root hands it in). */
export interface ForwardingRoutesOptions {
  db: Db;
  forwarding: Forwarding;
  limiter: RateLimiter;
}

/** Every token forwarding call of spec B §7, for members of accounts with the TOKEN_FORWARDING feature. */
export const forwardingRoutes: FastifyPluginAsyncTypebox<ForwardingRoutesOptions> = async (
  app,
  { db, forwarding, limiter },
) => {
  const service = forwarding.service;
  const limit = (action: string, rules: RateRule[], req: FastifyRequest) =>
    enforce(
      limiter,
      accountAndUserChecks(action, { accountId: requireAccount(req).id, userId: requireCaller(req).userId }, rules),
    );
  const {
    supportedNetworksAndTokens,
    createGasWallet,
    listGasWallets,
    deleteGasWallet,
    refreshGasBalance,
    renameGasWallet,
    createDestination,
    listDestinations,
    deleteDestination,
    renameDestination,
    createWallet,
    listWallets,
    deleteWallet,
    setWalletStatus,
    listTransactions,
    contractInfo,
    testWebhook,
  } = endpoints.forwarding;

  // Membership is checked first (guards); then the feature, before any input is read.
  app.addHook('preValidation', async (request) => {
    if (!(await isFeatureEnabled(db, requireAccount(request).id, 'TOKEN_FORWARDING')))
      throw forbidden(M.featureDisabled);
  });

  route(app, supportedNetworksAndTokens, {}, async () => ok(service.supported()));

  // ---- gas fee funding wallets ----
  route(
    app,
    createGasWallet,
    {
      preValidation: requiredFields((b) => [
        [b.network, M.networkRequired],
        [b.name, M.nameRequired],
      ]),
    },
    async (req) => ok(await service.createGasWallet(requireAccount(req).id, req.body), M.walletCreated),
  );
  route(app, listGasWallets, {}, async (req) =>
    ok({ gasFeeFundingWallets: await service.listGasWallets(requireAccount(req).id) }),
  );
  route(app, deleteGasWallet, { preValidation: noBody }, async (req) => {
    await service.deleteGasWallet(requireAccount(req).id, req.params.walletId);
    return ok({}, M.walletDeleted);
  });
  route(app, refreshGasBalance, { preValidation: requiredFields((b) => [[b.id, M.selectWallet]]) }, async (req) => {
    await limit('gas-balance', CHAIN_READS, req);
    return ok(await service.refreshGasBalance(requireAccount(req).id, req.body.id), M.balanceRefreshed);
  });
  route(
    app,
    renameGasWallet,
    {
      preValidation: requiredFields((b) => [
        [b.id, M.selectWallet],
        [b.name, M.nameRequired],
      ]),
    },
    async (req) =>
      ok(await service.renameGasWallet(requireAccount(req).id, req.body.id, req.body.name), M.walletNameUpdated),
  );

  // ---- destination wallets ----
  const destinationRules = requiredFields((b) => [
    [b.network, M.networkRequired],
    [b.name, M.nameRequired],
    [b.destinationPublicAddress, M.destinationPublicAddressRequired],
  ]);
  route(app, createDestination, { preValidation: destinationRules }, async (req) =>
    ok(await service.createDestination(requireAccount(req).id, req.body), M.walletCreated),
  );
  route(app, listDestinations, {}, async (req) => ok(await service.listDestinations(requireAccount(req).id)));
  route(
    app,
    deleteDestination,
    {
      preValidation: requiredFields((b) => [
        [b.network, M.networkRequired],
        [b.destinationPublicAddress, M.destinationPublicAddressRequired],
      ]),
    },
    async (req) => {
      await service.deleteDestination(requireAccount(req).id, req.body);
      return ok({}, M.walletDeleted);
    },
  );
  route(app, renameDestination, { preValidation: destinationRules }, async (req) =>
    ok(await service.renameDestination(requireAccount(req).id, req.body), M.walletNameUpdated),
  );

  // ---- token forwarding wallets ----
  route(app, createWallet, { preValidation: requiredFields(forwardingWalletRules) }, async (req) =>
    ok(await service.createWallet(requireAccount(req).id, req.body), M.walletCreated),
  );
  route(app, listWallets, {}, async (req) => {
    const statuses = req.query.statusIn
      ? (parseNameList(req.query.statusIn, 'statusIn', (s) => STATUSES.has(s), 'wallet status value') as WalletStatus[])
      : (['ENABLED', 'DISABLED'] as WalletStatus[]);
    return ok({ tokenForwardingWallets: await service.listWallets(requireAccount(req).id, statuses) });
  });
  route(app, deleteWallet, { preValidation: noBody }, async (req) => {
    await service.deleteWallet(requireAccount(req).id, req.params.walletId);
    return ok({}, M.walletDeleted);
  });
  route(
    app,
    setWalletStatus,
    {
      preValidation: async (req) => {
        await requiredFields((b) => [[b.id, M.selectWallet]])(req);
        const status = (req.body as Record<string, unknown>).newStatus;
        if (!STATUSES.has(String(status))) throw badRequest(M.newStatusInvalid);
      },
    },
    async (req) => {
      const { id, newStatus, reason } = req.body;
      const wallet = await service.setStatus(requireAccount(req).id, id, newStatus, reason);
      return ok(wallet, newStatus === 'ENABLED' ? M.walletEnabled : M.walletDisabled);
    },
  );

  // ---- transactions, contract info, webhook test ----
  route(app, listTransactions, {}, async (req) =>
    ok(await service.listTransactions(requireAccount(req).id, req.query)),
  );
  route(
    app,
    contractInfo,
    {
      preValidation: async (req) => {
        const q = (req.query ?? {}) as Record<string, unknown>;
        await requiredFields(() => [
          [q.network, M.networkRequired],
          [q.smartContractAddress, M.smartContractAddressRequired],
        ])(req);
      },
    },
    async (req) => {
      await limit('contract-info', CHAIN_READS, req);
      return ok(await service.contractInfo(req.query.network, req.query.smartContractAddress));
    },
  );
  route(app, testWebhook, { preValidation: requiredFields((b) => [[b.url, M.webhookUrlRequired]]) }, async (req) => {
    await limit('webhook-test', WEBHOOK_TESTS, req);
    return ok(await service.testWebhook(requireAccount(req).id, req.body));
  });
};
