import type { Db } from '../../db/database.ts';

/**
 * Every account's creator, as a table (`account_id`, `created_by`) for a statement that must join
 * it to other modules' tables in one go (the ambassadors' rewards).
 */
export const accountCreators = (db: Db) => db.selectFrom('accounts').select(['id as account_id', 'created_by']);
