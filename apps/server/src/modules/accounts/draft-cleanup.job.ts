import type { Db } from '../../db/database.ts';
import type { CardsService } from '../cards/index.ts';
import * as store from './accounts.store.ts';

/** A creation-wizard draft left this long is abandoned. */
export const DRAFT_LIFETIME_SECONDS = 86_400;

/**
 * The cleanup job: deletes abandoned drafts with their cards, rows first and then at the provider.
 * A draft that somehow holds ledger rows is kept: the ledger is never deleted from.
 */
export async function cleanUpDrafts(
  db: Db,
  cards: CardsService,
  olderThanSeconds = DRAFT_LIFETIME_SECONDS,
): Promise<{ deleted: number; errors: string[] }> {
  const errors: string[] = [];
  let deleted = 0;
  for (const draft of await store.staleDrafts(db, olderThanSeconds)) {
    try {
      const detach = await db.transaction().execute(async (trx) => {
        const drop = await cards.dropAll(trx, draft.id);
        return (await store.deleteDraft(trx, draft.id)) ? drop : undefined;
      });
      if (detach) {
        deleted += 1;
        await detach();
      }
    } catch (error) {
      errors.push(`${draft.id}: ${(error as Error).message}`);
    }
  }
  return { deleted, errors };
}
