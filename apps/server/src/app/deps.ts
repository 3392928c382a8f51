import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { Jobs } from '../jobs/scheduler.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AccountsService } from '../modules/accounts/accounts.service.ts';
import type { DepositService } from '../modules/billing/deposit.service.ts';
import type { CardProvider } from '../modules/cards/card-provider.ts';
import type { CardsService } from '../modules/cards/cards.service.ts';
import type { Forwarding } from '../modules/forwarding/forwarding.ts';
import type { IdentityProvider } from '../modules/identity/identity.service.ts';
import type { IdTokens } from '../modules/identity/tokens.ts';
import type { TwoFactorService } from '../modules/identity/two-factor.service.ts';
import type { KeysService } from '../modules/keys/keys.service.ts';
import type { RpcGateway } from '../modules/rpc/rpc.service.ts';
import type { SupportService } from '../modules/support/support.service.ts';
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
}
