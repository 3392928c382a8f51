import {
  badRequest,
  canManageAccount,
  forbidden,
  Messages,
  notFound,
  type SpendingCapFields,
  type SpendingCapSetting,
} from '@ebs/contract';
import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/database.ts';
import type { CurrentAccount } from '../../http/guards.ts';
import { updateSpendingCap } from '../accounts/index.ts';

/** The contract's pattern allows 0 to 9999999.99; a cap or limit of 0 would stop everything, so it starts at a cent. */
const inRange = (value: string) => Number(value) >= 0.01 && Number(value) <= 9_999_999.99;

/**
 * The spending cap (Billing), the owner's alone: the monthly cap on RPC usage the gateway enforces,
 * and Auto Pay's monthly limit. Either may be given alone; null clears it. Every value is checked
 * before anything is saved, so a refusal changes nothing.
 */
export async function saveSpendingCap(
  db: Db,
  account: CurrentAccount,
  fields: Static<typeof SpendingCapFields>,
): Promise<SpendingCapSetting> {
  // A member may keep Auto Pay going, but the cap decides when every key of the account stops.
  if (!canManageAccount(account.roleName)) throw forbidden(Messages.ownerOnlySpendingCap);
  const { monthlyCapUsd, autoPayMonthlyMaxUsd } = fields;
  if (monthlyCapUsd === undefined && autoPayMonthlyMaxUsd === undefined) {
    throw badRequest(Messages.spendingCapRequired);
  }
  if (monthlyCapUsd != null && !inRange(monthlyCapUsd)) throw badRequest(Messages.spendingCapRange);
  if (autoPayMonthlyMaxUsd != null && !inRange(autoPayMonthlyMaxUsd)) {
    throw badRequest(Messages.autoPayMonthlyMaxRange);
  }
  const saved = await updateSpendingCap(db, account.id, { monthlyCapUsd, autoPayMonthlyMaxUsd });
  if (!saved) throw notFound(Messages.notAMember);
  return saved;
}
