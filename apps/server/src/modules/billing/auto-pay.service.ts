import {
  AUTO_PAY_MIN_BALANCE,
  type AutoDepositSetting,
  DEPOSIT_MAX,
  Messages,
  type UpdateAccountSettingsBody,
} from '@ebs/contract';
import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { findDefaultCard } from '../cards/cards.service.ts';
import { findSetting } from '../settings/settings.service.ts';

type AutoDeposit = Static<typeof AutoDepositSetting>;

/** The DEPOSIT setting's minimum, 1 when unset (spec A §5). */
export async function depositMinimum(db: Db): Promise<number> {
  const setting = await findSetting(db, 'DEPOSIT');
  return (setting?.settings as { minAmount?: number } | undefined)?.minAmount || 1;
}

async function read(db: Db, accountId: string): Promise<AutoDeposit> {
  const row = await db
    .selectFrom('accounts')
    .select(['auto_deposit_enabled', 'auto_deposit_min_balance', 'auto_deposit_amount'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return {
    autoDepositEnabled: row.auto_deposit_enabled,
    minBalance: row.auto_deposit_min_balance === null ? null : Number(row.auto_deposit_min_balance),
    autoDepositAmount: row.auto_deposit_amount === null ? null : Number(row.auto_deposit_amount),
  };
}

/**
 * Auto pay settings (spec A §4-§5): the toggle is saved at once; the threshold (1 to 99999,
 * 1 when unset) and the amount (the deposit minimum to 99999) are saved together.
 * Turning it on needs a default card to charge.
 */
export async function updateAutoDeposit(
  db: Db,
  accountId: string,
  fields: UpdateAccountSettingsBody['fields'],
): Promise<{ autoDeposit: AutoDeposit; message: string }> {
  const current = await read(db, accountId);
  const minimum = await depositMinimum(db);
  if ('autoDepositEnabled' in fields) {
    if (fields.autoDepositEnabled && !(await findDefaultCard(db, accountId))) throw badRequest(Messages.setDefaultCard);
    await db
      .updateTable('accounts')
      .set({
        auto_deposit_enabled: fields.autoDepositEnabled,
        auto_deposit_min_balance: current.minBalance ?? AUTO_PAY_MIN_BALANCE.default,
        auto_deposit_amount: current.autoDepositAmount ?? minimum,
      })
      .where('id', '=', accountId)
      .execute();
    return {
      autoDeposit: await read(db, accountId),
      message: fields.autoDepositEnabled ? Messages.autoPayEnabled : Messages.autoPayDisabled,
    };
  }
  const { minBalance, autoDepositAmount } = fields;
  if (!minBalance || !autoDepositAmount) throw badRequest(Messages.depositAmountRequired);
  if (minBalance < AUTO_PAY_MIN_BALANCE.min || minBalance > AUTO_PAY_MIN_BALANCE.max) {
    throw badRequest(Messages.autoPayThresholdRange);
  }
  if (!Number.isInteger(autoDepositAmount)) throw badRequest(Messages.depositWhole);
  if (autoDepositAmount < minimum) throw badRequest(Messages.depositMin(minimum));
  if (autoDepositAmount > DEPOSIT_MAX) throw badRequest(Messages.depositMax);
  await db
    .updateTable('accounts')
    .set({ auto_deposit_min_balance: minBalance, auto_deposit_amount: autoDepositAmount })
    .where('id', '=', accountId)
    .execute();
  return { autoDeposit: await read(db, accountId), message: Messages.autoPaySaved };
}
