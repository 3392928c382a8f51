import {
  AUTO_PAY_MIN_BALANCE,
  type AutoDepositSetting,
  badRequest,
  DEPOSIT_MAX,
  Messages,
  type UpdateAccountSettingsBody,
} from '@ebs/contract';
import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/database.ts';
import { findAutoPaySettings, updateAutoPaySettings } from '../accounts/index.ts';
import { findDefaultCard } from '../cards/index.ts';
import { findSetting } from '../settings/index.ts';

type AutoDeposit = Static<typeof AutoDepositSetting>;
type AutoDepositFields = Extract<UpdateAccountSettingsBody, { settingName: 'autoDeposit' }>['fields'];

/** The DEPOSIT setting's minimum, 1 when unset (spec A §5). */
export async function depositMinimum(db: Db): Promise<number> {
  const setting = await findSetting(db, 'DEPOSIT');
  return (setting?.settings as { minAmount?: number } | undefined)?.minAmount || 1;
}

/** The account's auto pay settings, amounts as numbers. */
async function read(db: Db, accountId: string): Promise<AutoDeposit> {
  const settings = await findAutoPaySettings(db, accountId);
  return {
    autoDepositEnabled: settings.enabled,
    minBalance: settings.minBalance === null ? null : Number(settings.minBalance),
    autoDepositAmount: settings.amount === null ? null : Number(settings.amount),
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
  fields: AutoDepositFields,
): Promise<{ autoDeposit: AutoDeposit; message: string }> {
  const current = await read(db, accountId);
  const minimum = await depositMinimum(db);
  if ('autoDepositEnabled' in fields) {
    if (fields.autoDepositEnabled && !(await findDefaultCard(db, accountId))) throw badRequest(Messages.setDefaultCard);
    await updateAutoPaySettings(db, accountId, {
      enabled: fields.autoDepositEnabled,
      minBalance: current.minBalance ?? AUTO_PAY_MIN_BALANCE.default,
      amount: current.autoDepositAmount ?? minimum,
    });
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
  await updateAutoPaySettings(db, accountId, { minBalance, amount: autoDepositAmount });
  return { autoDeposit: await read(db, accountId), message: Messages.autoPaySaved };
}
