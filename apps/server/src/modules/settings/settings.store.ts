import type { Setting, SettingName } from '@ebs/contract';
import type { Db } from '../../db/database.ts';

export async function findSetting(db: Db, name: SettingName): Promise<Setting | undefined> {
  const row = await db.selectFrom('settings').select(['name', 'value']).where('name', '=', name).executeTakeFirst();
  return row && { name, settings: row.value as Setting['settings'] };
}

export async function saveSetting(db: Db, name: SettingName, value: Setting['settings']): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name, value: JSON.stringify(value) })
    .onConflict((c) => c.column('name').doUpdateSet({ value: JSON.stringify(value) }))
    .execute();
}
