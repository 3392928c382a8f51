import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { Jobs } from '../jobs/scheduler.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AccountsService } from '../modules/accounts/index.ts';
import type { DepositService } from '../modules/billing/index.ts';
import type { CardProvider, CardsService } from '../modules/cards/index.ts';
import type { Forwarding } from '../modules/forwarding/index.ts';
import type { IdentityProvider, IdTokens, TwoFactorService } from '../modules/identity/index.ts';
import type { KeysService } from '../modules/keys/index.ts';
import type { Notify } from '../modules/notify/index.ts';
import type { RpcGateway } from '../modules/rpc/index.ts';
import type { SupportService } from '../modules/support/index.ts';
import type { Secrets } from '../secrets.ts';

/** What the modules are built from; app.ts makes one, tests may swap a part. */
export interface Deps {
  config: Config;
  db: Db;
  secrets: Secrets;
  tokens: IdTokens;
  limiter: RateLimiter;
  mailer: Mailer;
  identity: IdentityProvider;
  twoFactor: TwoFactorService;
  cardProvider: CardProvider;
  cards: CardsService;
  accounts: AccountsService;
  deposits: DepositService;
  keys: KeysService;
  support: SupportService;
  jobs: Jobs;
  rpc: RpcGateway;
  forwarding: Forwarding;
  notify: Notify;
}
