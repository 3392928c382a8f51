import {
  AccountHeaders,
  CreateDestinationBody,
  CreateGasFeeWalletBody,
  CreateTokenForwardingWalletBody,
  DeleteDestinationBody,
  DestinationList,
  DestinationWallet,
  Empty,
  ForwardingTransactionList,
  ForwardingTransactionQuery,
  GasFeeFundingWallet,
  GasFeeWalletIdBody,
  GasFeeWalletList,
  ForwardingMessages as M,
  RenameDestinationBody,
  RenameGasFeeWalletBody,
  SmartContractInfo,
  SmartContractInfoQuery,
  SupportedNetworkAndToken,
  TestWebhookBody,
  TestWebhookResult,
  TokenForwardingWallet,
  TokenForwardingWalletList,
  WalletListQuery,
  WalletParams,
  type WalletStatus,
  WalletStatusBody,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { badRequest, forbidden } from '../../http/errors.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { parseNameList } from '../../http/query.ts';
import { accountAndUserChecks, enforce, perMinuteAndDay, type RateRule } from '../../http/rate-limit.ts';
import { noBody, ok, responses } from '../../http/reply.ts';
import { isFeatureEnabled } from '../accounts/accounts.service.ts';
import { forwardingWalletRules, requiredFields } from './forwarding-rules.ts';

const BASE = '/api/v1.0/token-forwarding';
const STATUSES = new Set(['ENABLED', 'DISABLED']);
/** A test webhook is a request to an address the caller picks: few, so the console is no one's flooding tool. */
const WEBHOOK_TESTS = perMinuteAndDay(10, 200);
/** Contract reads and balance refreshes call the network's node, which the usage bill does not meter. */
const CHAIN_READS = perMinuteAndDay(30, 1000);

/** Every token forwarding call of spec B §7, for members of accounts with the TOKEN_FORWARDING feature. */
export const forwardingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db, forwarding, limiter }) => {
  const service = forwarding.service;
  const limit = (action: string, rules: RateRule[], req: FastifyRequest) =>
    enforce(
      limiter,
      accountAndUserChecks(action, { accountId: requireAccount(req).id, userId: requireCaller(req).userId }, rules),
    );
  const tags = ['token forwarding'];
  const config = { accountScoped: true };
  const headers = AccountHeaders;

  // Membership is checked first (guards); then the feature, before any input is read.
  app.addHook('preValidation', async (request) => {
    if (!(await isFeatureEnabled(db, requireAccount(request).id, 'TOKEN_FORWARDING')))
      throw forbidden(M.featureDisabled);
  });

  app.get(
    `${BASE}/supported-network-and-token`,
    { config, schema: { tags, headers, response: responses(SupportedNetworkAndToken) } },
    async () => ok(service.supported()),
  );

  // ---- gas fee funding wallets ----
  app.post(
    `${BASE}/gas-fee-funding-wallet`,
    {
      config,
      preValidation: requiredFields((b) => [
        [b.network, M.networkRequired],
        [b.name, M.nameRequired],
      ]),
      schema: { tags, headers, body: CreateGasFeeWalletBody, response: responses(GasFeeFundingWallet) },
    },
    async (req) => ok(await service.createGasWallet(requireAccount(req).id, req.body), M.walletCreated),
  );
  app.get(
    `${BASE}/gas-fee-funding-wallet`,
    { config, schema: { tags, headers, response: responses(GasFeeWalletList) } },
    async (req) => ok({ gasFeeFundingWallets: await service.listGasWallets(requireAccount(req).id) }),
  );
  app.delete(
    `${BASE}/gas-fee-funding-wallet/:walletId`,
    { config, preValidation: noBody, schema: { tags, headers, params: WalletParams, response: responses(Empty) } },
    async (req) => {
      await service.deleteGasWallet(requireAccount(req).id, req.params.walletId);
      return ok({}, M.walletDeleted);
    },
  );
  app.post(
    `${BASE}/gas-fee-funding-wallet/balance`,
    {
      config,
      preValidation: requiredFields((b) => [[b.id, M.selectWallet]]),
      schema: { tags, headers, body: GasFeeWalletIdBody, response: responses(GasFeeFundingWallet) },
    },
    async (req) => {
      await limit('gas-balance', CHAIN_READS, req);
      return ok(await service.refreshGasBalance(requireAccount(req).id, req.body.id), M.balanceRefreshed);
    },
  );
  app.post(
    `${BASE}/gas-fee-funding-wallet/name`,
    {
      config,
      preValidation: requiredFields((b) => [
        [b.id, M.selectWallet],
        [b.name, M.nameRequired],
      ]),
      schema: { tags, headers, body: RenameGasFeeWalletBody, response: responses(GasFeeFundingWallet) },
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
  app.post(
    `${BASE}/destination`,
    {
      config,
      preValidation: destinationRules,
      schema: { tags, headers, body: CreateDestinationBody, response: responses(DestinationWallet) },
    },
    async (req) => ok(await service.createDestination(requireAccount(req).id, req.body), M.walletCreated),
  );
  app.get(
    `${BASE}/destination`,
    { config, schema: { tags, headers, response: responses(DestinationList) } },
    async (req) => ok(await service.listDestinations(requireAccount(req).id)),
  );
  app.delete(
    `${BASE}/destination`,
    {
      config,
      preValidation: requiredFields((b) => [
        [b.network, M.networkRequired],
        [b.destinationPublicAddress, M.destinationPublicAddressRequired],
      ]),
      schema: { tags, headers, body: DeleteDestinationBody, response: responses(Empty) },
    },
    async (req) => {
      await service.deleteDestination(requireAccount(req).id, req.body);
      return ok({}, M.walletDeleted);
    },
  );
  app.post(
    `${BASE}/destination/name`,
    {
      config,
      preValidation: destinationRules,
      schema: { tags, headers, body: RenameDestinationBody, response: responses(DestinationWallet) },
    },
    async (req) => ok(await service.renameDestination(requireAccount(req).id, req.body), M.walletNameUpdated),
  );

  // ---- token forwarding wallets ----
  app.post(
    `${BASE}/wallet`,
    {
      config,
      preValidation: requiredFields(forwardingWalletRules),
      schema: { tags, headers, body: CreateTokenForwardingWalletBody, response: responses(TokenForwardingWallet) },
    },
    async (req) => ok(await service.createWallet(requireAccount(req).id, req.body), M.walletCreated),
  );
  app.get(
    `${BASE}/wallet`,
    { config, schema: { tags, headers, querystring: WalletListQuery, response: responses(TokenForwardingWalletList) } },
    async (req) => {
      const statuses = req.query.statusIn
        ? (parseNameList(
            req.query.statusIn,
            'statusIn',
            (s) => STATUSES.has(s),
            'wallet status value',
          ) as WalletStatus[])
        : (['ENABLED', 'DISABLED'] as WalletStatus[]);
      return ok({ tokenForwardingWallets: await service.listWallets(requireAccount(req).id, statuses) });
    },
  );
  app.delete(
    `${BASE}/wallet/:walletId`,
    { config, preValidation: noBody, schema: { tags, headers, params: WalletParams, response: responses(Empty) } },
    async (req) => {
      await service.deleteWallet(requireAccount(req).id, req.params.walletId);
      return ok({}, M.walletDeleted);
    },
  );
  app.post(
    `${BASE}/wallet/status`,
    {
      config,
      preValidation: async (req) => {
        await requiredFields((b) => [[b.id, M.selectWallet]])(req);
        const status = (req.body as Record<string, unknown>).newStatus;
        if (!STATUSES.has(String(status))) throw badRequest(M.newStatusInvalid);
      },
      schema: { tags, headers, body: WalletStatusBody, response: responses(TokenForwardingWallet) },
    },
    async (req) => {
      const { id, newStatus, reason } = req.body;
      const wallet = await service.setStatus(requireAccount(req).id, id, newStatus, reason);
      return ok(wallet, newStatus === 'ENABLED' ? M.walletEnabled : M.walletDisabled);
    },
  );

  // ---- transactions, contract info, webhook test ----
  app.get(
    `${BASE}/transaction`,
    {
      config,
      schema: {
        tags,
        headers,
        querystring: ForwardingTransactionQuery,
        response: responses(ForwardingTransactionList),
      },
    },
    async (req) => ok(await service.listTransactions(requireAccount(req).id, req.query)),
  );
  app.get(
    `${BASE}/smart-contract-info`,
    {
      config,
      preValidation: async (req) => {
        const q = (req.query ?? {}) as Record<string, unknown>;
        await requiredFields(() => [
          [q.network, M.networkRequired],
          [q.smartContractAddress, M.smartContractAddressRequired],
        ])(req);
      },
      schema: { tags, headers, querystring: SmartContractInfoQuery, response: responses(SmartContractInfo) },
    },
    async (req) => {
      await limit('contract-info', CHAIN_READS, req);
      return ok(await service.contractInfo(req.query.network, req.query.smartContractAddress));
    },
  );
  app.post(
    `${BASE}/testWebhook`,
    {
      config,
      preValidation: requiredFields((b) => [[b.url, M.webhookUrlRequired]]),
      schema: { tags, headers, body: TestWebhookBody, response: responses(TestWebhookResult) },
    },
    async (req) => {
      await limit('webhook-test', WEBHOOK_TESTS, req);
      return ok(await service.testWebhook(requireAccount(req).id, req.body));
    },
  );
};
