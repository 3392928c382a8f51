import type { Db } from '../../db/database.ts';
import { findSetting } from './settings.store.ts';

// What other modules use of this module's store, and only that: they never import the store.
export { findSetting, saveSetting } from './settings.store.ts';

/** Whether the operator requires a card before an account is finished (the ADD_PAYMENT_CARD setting). */
export async function cardMandatory(db: Db): Promise<boolean> {
  const setting = await findSetting(db, 'ADD_PAYMENT_CARD');
  return (setting?.settings as { mandatory?: boolean } | undefined)?.mandatory === true;
}
