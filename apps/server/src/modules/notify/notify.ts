import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Secrets } from '../../secrets.ts';
import type { ForwardingChains } from '../forwarding/index.ts';
import { NotifyService } from './notify.service.ts';
import { NotifyEngine } from './notify-engine.ts';

/** Address-activity webhooks' parts, made once per process: the API's rules and the engine. */
export interface Notify {
  service: NotifyService;
  engine: NotifyEngine;
}

export function buildNotify(deps: {
  db: Db;
  config: Config;
  secrets: Secrets;
  chains: ForwardingChains;
  mailer: Mailer;
  log: FastifyBaseLogger;
}): Notify {
  const { db, config, secrets, chains } = deps;
  return {
    service: new NotifyService(db, chains, secrets.dataKey, config),
    engine: new NotifyEngine({
      db,
      chains,
      log: deps.log,
      sender: { db, dataKey: secrets.dataKey, mailer: deps.mailer, productName: config.PRODUCT_NAME, config },
    }),
  };
}
