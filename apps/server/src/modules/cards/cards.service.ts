import { badRequest, forbidden, Messages, notFound, type SetupIntent } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { findCustomerId, lockAccountRow, recordCustomerId } from '../accounts/index.ts';
import { isExpired } from './card-expiry.ts';
import type { CardProvider } from './card-provider.ts';
import * as store from './cards.store.ts';

/**
 * Payment cards of an account (spec A §4-§5), kept at the card provider: the console holds
 * brand, last four, expiry and the provider's token. Exactly one live card is the default.
 */
export class CardsService {
  constructor(
    private readonly db: Db,
    private readonly provider: CardProvider,
  ) {}

  get providerName(): string {
    return this.provider.name;
  }

  async createSetupIntent(accountId: string, providerName: string): Promise<SetupIntent> {
    if (providerName !== this.provider.name) throw badRequest(Messages.unknownCardProvider(this.provider.name));
    return this.provider.createSetupIntent(accountId, await this.subscribe(accountId));
  }

  /**
   * Makes the account a customer of the card provider, once: the customer that holds its cards.
   * When two first calls race, one customer stands and the other is left unused at the provider.
   */
  async subscribe(accountId: string): Promise<string> {
    const known = await findCustomerId(this.db, accountId);
    if (known) return known;
    return recordCustomerId(this.db, accountId, await this.provider.createCustomer(accountId));
  }

  /** `db` may be the caller's transaction. */
  async hasAny(accountId: string, db: Db = this.db): Promise<boolean> {
    return (await store.countCards(db, accountId)) > 0;
  }

  /** Whether the card is a live card of the account; `db` may be the caller's transaction. */
  async belongsTo(accountId: string, cardId: string, db: Db = this.db): Promise<boolean> {
    return (await store.findCard(db, cardId))?.accountId === accountId;
  }

  /**
   * Forgets every card of an account that is being deleted: rows first (in the caller's
   * transaction), then the provider is told; a provider failure leaves an orphan card there, never
   * a card row pointing at nothing.
   */
  async dropAll(db: Db, accountId: string): Promise<() => Promise<void>> {
    const customerId = await findCustomerId(db, accountId);
    const tokens = await store.deleteCardsOf(db, accountId);
    return async () => {
      if (customerId) for (const token of tokens) await this.provider.detach(customerId, token);
    };
  }

  /** Attaches a card the browser confirmed with the provider; the first card becomes the default. */
  async attach(accountId: string, cardToken: string): Promise<string> {
    const customerId = await findCustomerId(this.db, accountId);
    const card = customerId ? await this.provider.findCard(customerId, cardToken) : undefined;
    if (!customerId || !card) throw badRequest(Messages.cardUnknownToProvider);
    return this.db.transaction().execute(async (trx) => {
      await lockAccountRow(trx, accountId);
      if (await store.hasToken(trx, accountId, cardToken)) throw badRequest(Messages.cardAlreadyAdded);
      const first = (await store.countCards(trx, accountId)) === 0;
      return store.insertCard(trx, {
        accountId,
        provider: this.provider.name,
        token: cardToken,
        brand: card.brand,
        last4: card.last4,
        expMonth: card.expMonth,
        expYear: card.expYear,
        isDefault: first,
      });
    });
  }

  async setDefault(accountId: string, cardId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockAccountRow(trx, accountId);
      await this.cardOf(trx, accountId, cardId);
      await store.makeDefault(trx, accountId, cardId);
    });
  }

  /** The only card and the default card stay (spec A §5); the provider forgets a removed card. */
  async remove(accountId: string, cardId: string): Promise<void> {
    const token = await this.db.transaction().execute(async (trx) => {
      await lockAccountRow(trx, accountId);
      const card = await this.cardOf(trx, accountId, cardId);
      if ((await store.countCards(trx, accountId)) <= 1) throw badRequest(Messages.onlyCard);
      if (card.isDefault) throw badRequest(Messages.defaultCard);
      await store.markRemoved(trx, cardId);
      return card.providerToken;
    });
    const customerId = await findCustomerId(this.db, accountId);
    if (customerId) await this.provider.detach(customerId, token);
  }

  async updateExpiry(accountId: string, cardId: string, expMonth: number, expYear: number): Promise<void> {
    if (isExpired(expMonth, expYear)) throw badRequest(Messages.cardExpiryInPast);
    const card = await this.cardOf(this.db, accountId, cardId);
    const customerId = await findCustomerId(this.db, accountId);
    if (!customerId) throw badRequest(Messages.cardUnknownToProvider);
    await this.provider.updateExpiry(customerId, card.providerToken, expMonth, expYear);
    await store.setExpiry(this.db, cardId, expMonth, expYear);
  }

  /** The account a card belongs to, when the caller is one of its members (the default call may omit the header). */
  async accountOfCard(cardId: string, isMember: (accountId: string) => Promise<boolean>): Promise<string> {
    const card = await store.findCard(this.db, cardId);
    if (!card) throw notFound(Messages.cardNotFound);
    if (!(await isMember(card.accountId))) throw forbidden(Messages.notAMember);
    return card.accountId;
  }

  private async cardOf(db: Db, accountId: string, cardId: string): Promise<store.CardRow> {
    const card = await store.findCard(db, cardId);
    if (!card || card.accountId !== accountId) throw notFound(Messages.cardNotFound);
    return card;
  }
}

export { cardLabel } from './card-labels.store.ts';
// What other modules use of this module's store, and only that: they never import the store.
export { findCard, findDefaultCard } from './cards.store.ts';
