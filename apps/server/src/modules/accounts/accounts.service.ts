import {
  type AccountSummary,
  badRequest,
  type FinishCreateAccountBody,
  forbidden,
  HIDDEN_ACCOUNT_NAME,
  isValidAccountName,
  MAX_ACCOUNTS_PER_USER,
  Messages,
  OWNER_ROLE,
} from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import type { CardsService } from '../cards/index.ts';
import * as store from './accounts.store.ts';
import { newSealedSigningSecret } from './signing-secret.ts';

/**
 * Accounts and their creation (spec A §4). The creation wizard works on a draft named
 * ACCOUNT_CREATION, made when it reaches the payment step so cards can be attached to it; the
 * finish step names it and makes it an account. A user owns at most 10 finished accounts.
 */
/**
 * What finishing an account asks of other modules, handed in by the composition root: whether the
 * operator requires a card (settings), and the welcome credit (billing), posted in the caller's
 * transaction.
 */
export interface AccountCreationRules {
  cardMandatory(db: Db): Promise<boolean>;
  claimWelcomeCredit(trx: Db, userId: string, accountId: string): Promise<unknown>;
}

export class AccountsService {
  constructor(
    private readonly db: Db,
    private readonly cards: CardsService,
    private readonly dataKey: Buffer,
    private readonly rules: AccountCreationRules,
  ) {}

  /** POST /account: a named account at once, or (named ACCOUNT_CREATION) the user's wizard draft. */
  async create(userId: string, input: { accountName: string }): Promise<AccountSummary> {
    if (!isValidAccountName(input.accountName)) throw badRequest(Messages.invalidAccountName);
    const isDraft = input.accountName === HIDDEN_ACCOUNT_NAME;
    const account = await this.db.transaction().execute(async (trx) => {
      await store.lockUser(trx, userId);
      // One draft per user: a wizard opened again (or in two tabs) continues the same one.
      const draft = isDraft ? await store.findDraftOf(trx, userId) : undefined;
      if (draft) return draft;
      await this.checkLimit(trx, userId);
      return store.insertAccount(trx, {
        name: input.accountName,
        // The card provider's customer is created by the server; a customer id sent by the client
        // is never trusted (it could name another account's customer).
        customerId: null,
        ownerId: userId,
        roleName: OWNER_ROLE,
        isDraft,
        signingSecretSealed: newSealedSigningSecret(this.dataKey),
      });
    });
    // spec: the draft's provider customer is made with it, before the wizard asks for a card.
    if (isDraft) await this.cards.subscribe(account.id);
    return account;
  }

  /**
   * POST /account/finishCreateAccountProcess. Idempotent: a retried finish answers the account it
   * made, and the welcome credit is posted at most once per user whatever is retried.
   */
  async finish(userId: string, accountId: string, input: FinishCreateAccountBody): Promise<AccountSummary> {
    const name = input.accountName;
    if (!isValidAccountName(name) || name === HIDDEN_ACCOUNT_NAME) throw badRequest(Messages.invalidAccountName);
    await this.db.transaction().execute(async (trx) => {
      await store.lockUser(trx, userId);
      const account = await store.lockAccountOfOwner(trx, accountId, userId);
      if (!account) throw forbidden(Messages.notAMember);
      if (account.role_name !== OWNER_ROLE) throw forbidden(Messages.notAMember);
      if (!account.is_draft) {
        if (account.name === name) return;
        throw badRequest(Messages.accountAlreadyCreated);
      }
      await this.checkLimit(trx, userId);
      if (input.cardId && !(await this.cards.belongsTo(accountId, input.cardId, trx))) {
        throw badRequest(Messages.cardNotFound);
      }
      if (!input.cardId && (await this.rules.cardMandatory(trx)) && !(await this.cards.hasAny(accountId, trx))) {
        throw badRequest(Messages.cardRequiredToCreate);
      }
      await store.finishDraft(trx, accountId, name);
      // The checkbox is shown only to users who have not redeemed it; a stale page asking again
      // still creates the account, without a second credit.
      if (input.redeemWelcomeCredit) await this.rules.claimWelcomeCredit(trx, userId, accountId);
    });
    const summary = await store.findSummary(this.db, accountId, userId);
    if (!summary) throw forbidden(Messages.notAMember);
    return summary;
  }

  private async checkLimit(db: Db, userId: string): Promise<void> {
    if ((await store.countOwnedAccounts(db, userId)) >= MAX_ACCOUNTS_PER_USER) throw badRequest(Messages.accountLimit);
  }
}

export { accountName } from './account-names.store.ts';
// What other modules use of this module's store, and only that: they never import the store.
export {
  accountExists,
  isFeatureEnabled,
  ledgerBalance,
  setFeature,
} from './accounts.store.ts';
