import {
  type AccountSummary,
  badRequest,
  canManageAccount,
  forbidden,
  HIDDEN_ACCOUNT_NAME,
  isValidAccountName,
  Messages,
  notFound,
  OWNER_ROLE,
  quotedName,
  type RotatedSigningSecret,
} from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Caller, CurrentAccount } from '../../http/guards.ts';
import type { Mail, Mailer } from '../../mail/mailer.ts';
import { type Secrets, seal, unseal } from '../../secrets.ts';
import * as settings from './account-settings.store.ts';
import { findSummary, listUserRoles } from './accounts.store.ts';
import { newSealedSigningSecret, newSigningSecret } from './signing-secret.ts';

/**
 * After a rotation, webhooks carry a signature made with the replaced secret too for this long, so
 * receivers can take the new one without refusing a delivery in between.
 */
export const SIGNING_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Edit Account Name (spec B §5): the owner only, by the same name rule as the creation finish (spec A §5). */
export async function renameAccount(
  db: Db,
  caller: Caller,
  account: CurrentAccount,
  accountName: string,
): Promise<AccountSummary> {
  // The route's ownerOnly guard refuses first; the rule stays here for any other caller.
  if (!canManageAccount(account.roleName)) throw forbidden(Messages.ownerOnlyRename);
  // The wizard's draft name would hide the account from its own list, as the finish step also refuses.
  if (!isValidAccountName(accountName) || accountName === HIDDEN_ACCOUNT_NAME) {
    throw badRequest(Messages.invalidAccountName);
  }
  await settings.renameAccount(db, account.id, accountName);
  const summary = await findSummary(db, account.id, caller.userId);
  if (!summary) throw notFound(Messages.notAMember);
  return summary;
}

/**
 * The account's webhook signing secret, for its owner (the route's guard). Accounts made before secrets were given
 * at creation get one on their first read; of two first reads at once, the first stored wins and
 * both answer it.
 */
export async function readSigningSecret(db: Db, dataKey: Buffer, accountId: string): Promise<string> {
  let sealed = await settings.findSealedSigningSecret(db, accountId);
  if (sealed === undefined) throw notFound(Messages.notAMember);
  if (sealed === null) {
    await settings.setSigningSecretIfMissing(db, accountId, newSealedSigningSecret(dataKey));
    sealed = await settings.findSealedSigningSecret(db, accountId);
    if (!sealed) throw new Error('the signing secret was not stored');
  }
  return unseal(dataKey, sealed);
}

/**
 * The secrets a webhook sent at `at` is signed with, the current one first: the previous one too
 * while the overlap after its rotation lasts. Read at each attempt, so a retry of a message made
 * before a rotation is signed with the secrets in force when it is sent.
 */
export async function signingSecretsInForce(db: Db, dataKey: Buffer, accountId: string, at: Date): Promise<string[]> {
  const stored = await settings.findSigningSecrets(db, accountId);
  if (!stored) throw notFound(Messages.notAMember);
  const current = stored.current ? unseal(dataKey, stored.current) : await readSigningSecret(db, dataKey, accountId);
  const overlapEnd = (stored.rotatedAt?.getTime() ?? 0) + SIGNING_SECRET_OVERLAP_MS;
  return stored.previous && at.getTime() < overlapEnd ? [current, unseal(dataKey, stored.previous)] : [current];
}

export interface RotationDeps {
  db: Db;
  secrets: Pick<Secrets, 'dataKey'>;
  mailer: Mailer;
  config: Pick<Config, 'PRODUCT_NAME' | 'PUBLIC_URL'>;
}

/**
 * Rotate (docs/roles.md, the owner only): a new secret signs webhooks from now on, and the one it
 * replaces signs them too for the overlap. Only the latest replaced secret is kept: rotating again
 * within the overlap ends the older one at once, which is also how an owner cuts a leaked secret
 * off without waiting. The owners are e-mailed, so a rotation they did not make does not go unseen.
 */
export async function rotateSigningSecret(
  deps: RotationDeps,
  caller: Caller,
  account: CurrentAccount,
  log: Pick<FastifyBaseLogger, 'error'>,
  at = new Date(),
): Promise<RotatedSigningSecret> {
  // The route's ownerOnly guard refuses first; the rule stays here for any other caller.
  if (!canManageAccount(account.roleName)) throw forbidden(Messages.ownerOnlySigningSecret);
  const secret = newSigningSecret();
  const rotated = await settings.rotateSigningSecret(deps.db, account.id, seal(deps.secrets.dataKey, secret), at);
  if (!rotated) throw notFound(Messages.notAMember);
  const previousSecretExpiresAt = rotated.hadSecret
    ? new Date(at.getTime() + SIGNING_SECRET_OVERLAP_MS).toISOString()
    : null;

  const accountName = (await settings.findAccountName(deps.db, account.id)) ?? '';
  const owners = (await listUserRoles(deps.db, account.id)).filter((role) => role.roleName === OWNER_ROLE);
  const facts = { by: caller.email, accountId: account.id, accountName, at, previousSecretExpiresAt };
  // The rotation stands whatever happens to the e-mails: a failed send is logged, not answered.
  await Promise.all(
    owners.map(({ email }) =>
      deps.mailer
        .send(rotationMail(deps.config, { ...facts, to: email }))
        .catch((error: unknown) => log.error({ err: error, accountId: account.id }, 'signing secret e-mail failed')),
    ),
  );
  return { secret, previousSecretExpiresAt };
}

interface RotationFacts {
  to: string;
  by: string;
  accountId: string;
  accountName: string;
  at: Date;
  previousSecretExpiresAt: string | null;
}

const rotationMail = (config: RotationDeps['config'], f: RotationFacts): Mail => ({
  to: f.to,
  subject: `The signing secret of ${quotedName(f.accountName)} on ${config.PRODUCT_NAME} was rotated`,
  text:
    `${f.by} rotated the webhook signing secret of the account ${quotedName(f.accountName)} on ${config.PRODUCT_NAME} ` +
    `at ${f.at.toISOString()}. ` +
    (f.previousSecretExpiresAt
      ? `Until ${f.previousSecretExpiresAt}, webhooks are signed with both the new and the previous secret; ` +
        'after that only the new secret verifies them. '
      : '') +
    `Reveal the new secret in Settings: ${config.PUBLIC_URL}/account/${f.accountId}/settings. ` +
    'If you did not rotate it, change your password and rotate it again.',
});
