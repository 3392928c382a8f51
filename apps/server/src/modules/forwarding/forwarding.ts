import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Secrets } from '../../secrets.ts';
import { type ChainRpc, ForwardingChains } from './chain.ts';
import { ForwardingService } from './forwarding.service.ts';
import { ForwardingEngine } from './forwarding-engine.ts';
import { WalletKeys } from './wallet-keys.ts';
import { deliverWebhooks } from './webhooks/webhooks.job.ts';

/** Token forwarding's parts, made once per process: the API's rules, the engine, webhook delivery. */
export interface Forwarding {
  service: ForwardingService;
  engine: ForwardingEngine;
  chains: ForwardingChains;
  deliverWebhooks: () => Promise<unknown>;
}

export function buildForwarding(deps: {
  db: Db;
  config: Config;
  secrets: Secrets;
  rpc: ChainRpc;
  mailer: Mailer;
  log: FastifyBaseLogger;
}): Forwarding {
  const { db, config, secrets } = deps;
  const keys = new WalletKeys(secrets.walletSeed);
  const chains = new ForwardingChains(deps.rpc, config.forwardingConfirmations);
  // Deliveries are leased in the engine's name: a later process of this host takes back a killed one's.
  const webhooks = (): Promise<unknown> =>
    deliverWebhooks({ db, dataKey: secrets.dataKey, config, owner: engine.owner });
  const engine: ForwardingEngine = new ForwardingEngine({
    db,
    chains,
    keys,
    mailer: deps.mailer,
    log: deps.log,
    productName: config.PRODUCT_NAME,
    afterTick: webhooks,
  });
  return {
    service: new ForwardingService(db, keys, chains, secrets.dataKey, config),
    engine,
    chains,
    deliverWebhooks: webhooks,
  };
}
