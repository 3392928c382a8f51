import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './database.ts';
import * as foundation from './migrations/2026_11_21_0001_foundation.ts';
import * as cards from './migrations/2026_11_21_0002_cards.ts';
import * as autoPay from './migrations/2026_11_21_0003_auto_pay.ts';
import * as suspension from './migrations/2026_11_21_0004_suspension.ts';
import * as accounts from './migrations/2026_11_21_0005_accounts.ts';
import * as keysAndUsage from './migrations/2026_11_21_0006_keys_and_usage.ts';
import * as tokenForwarding from './migrations/2026_11_21_0007_token_forwarding.ts';
import * as ambassadorRewards from './migrations/2026_11_21_0008_ambassador_rewards.ts';
import * as twoFactor from './migrations/2026_11_21_0009_two_factor.ts';
import * as thirdPartySignIn from './migrations/2026_11_21_0010_third_party_sign_in.ts';
import * as consoleScale from './migrations/2026_11_21_0011_console_scale.ts';
import * as webhookLeaseOwner from './migrations/2026_11_22_0014_webhook_lease_owner.ts';
import * as cardReversals from './migrations/2026_11_24_0401_card_reversals.ts';
import * as signingSecretRotation from './migrations/2026_11_24_0501_signing_secret_rotation.ts';
import * as signUpAttempts from './migrations/2026_11_24_0601_sign_up_attempts.ts';
import * as apiKeySettings from './migrations/2026_11_26_0101_api_key_settings.ts';
import * as gatewayInsight from './migrations/2026_11_27_0101_gateway_insight.ts';
import * as alerts from './migrations/2026_11_27_0201_alerts.ts';
import * as analyticsReads from './migrations/2026_11_27_0301_analytics_reads.ts';
import * as apiKeyCreations from './migrations/2026_11_28_0101_api_key_creations.ts';
import * as memberInvitations from './migrations/2026_11_28_0201_member_invitations.ts';
import * as requestLogAnswers from './migrations/2026_11_28_0301_request_log_answers.ts';
import * as rpcStatusHours from './migrations/2026_11_28_0401_rpc_status_hours.ts';
import * as computeUnits from './migrations/2026_11_28_0501_compute_units.ts';
import * as spendingCap from './migrations/2026_11_28_0502_spending_cap.ts';
import * as keyComputeUnitLimits from './migrations/2026_11_28_0503_key_compute_unit_limits.ts';
import * as methodComputeUnits from './migrations/2026_11_28_0504_method_compute_units.ts';
import * as addressWebhooks from './migrations/2026_11_28_0601_address_webhooks.ts';

/** Migrations are listed here in order; each is a file named by date that never imports app code. */
const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_0002_cards': cards,
  '2026_11_21_0003_auto_pay': autoPay,
  '2026_11_21_0004_suspension': suspension,
  '2026_11_21_0005_accounts': accounts,
  '2026_11_21_0006_keys_and_usage': keysAndUsage,
  '2026_11_21_0007_token_forwarding': tokenForwarding,
  '2026_11_21_0008_ambassador_rewards': ambassadorRewards,
  '2026_11_21_0009_two_factor': twoFactor,
  '2026_11_21_0010_third_party_sign_in': thirdPartySignIn,
  '2026_11_21_0011_console_scale': consoleScale,
  '2026_11_22_0014_webhook_lease_owner': webhookLeaseOwner,
  '2026_11_24_0401_card_reversals': cardReversals,
  '2026_11_24_0501_signing_secret_rotation': signingSecretRotation,
  '2026_11_24_0601_sign_up_attempts': signUpAttempts,
  '2026_11_26_0101_api_key_settings': apiKeySettings,
  '2026_11_27_0101_gateway_insight': gatewayInsight,
  '2026_11_27_0201_alerts': alerts,
  '2026_11_27_0301_analytics_reads': analyticsReads,
  '2026_11_28_0101_api_key_creations': apiKeyCreations,
  '2026_11_28_0201_member_invitations': memberInvitations,
  '2026_11_28_0301_request_log_answers': requestLogAnswers,
  '2026_11_28_0401_rpc_status_hours': rpcStatusHours,
  '2026_11_28_0501_compute_units': computeUnits,
  '2026_11_28_0502_spending_cap': spendingCap,
  '2026_11_28_0503_key_compute_unit_limits': keyComputeUnitLimits,
  '2026_11_28_0504_method_compute_units': methodComputeUnits,
  '2026_11_28_0601_address_webhooks': addressWebhooks,
};

/** Every migration's name, oldest first: a backup records the last one its database had. */
export const migrationNames: readonly string[] = Object.keys(migrations);

const provider: MigrationProvider = { getMigrations: async () => migrations };

export const migrateToLatest = (db: Db): Promise<void> => migrate(new Migrator({ db, provider }).migrateToLatest());

/** Migrates up or down to the migration named: a migration's own test starts from the step before it. */
export const migrateTo = (db: Db, name: string): Promise<void> =>
  migrate(new Migrator({ db, provider }).migrateTo(name));

async function migrate(run: ReturnType<Migrator['migrateToLatest']>): Promise<void> {
  const { error, results } = await run;
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
