import {
  type AddUserResult,
  badRequest,
  canManageAccount,
  forbidden,
  isValidEmail,
  MEMBER_ROLE,
  Messages,
  normalizeEmail,
  notFound,
  OWNER_ROLE,
  quotedName,
} from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Caller, CurrentAccount } from '../../http/guards.ts';
import { enforce, type RateLimiter } from '../../http/rate-limit.ts';
import type { Mail, Mailer } from '../../mail/mailer.ts';
import * as access from './account-access.store.ts';
import { findAccountName } from './account-settings.store.ts';

export interface AccessDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  limiter: RateLimiter;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Each addition sends an e-mail: an account cannot be used to mail strangers in bulk. */
const ADDS_PER_ACCOUNT = { limit: 30, windowSeconds: 60 * 60 } as const;

const requireOwner = (account: CurrentAccount) => {
  if (!canManageAccount(account.roleName)) throw forbidden(Messages.ownerOnlyUsers);
};

/**
 * Add User (spec B §5, docs/roles.md): the e-mail is invited, whether or not someone has signed up
 * with it, and the owner is answered and shown the same either way, so Add User tells no one which
 * addresses have a user. Someone who has signed up joins at their next look at their accounts
 * (`joinInvitedAccounts`), anyone else on confirming a sign-up with it. Either way an e-mail tells them.
 */
export async function addUser(
  deps: AccessDeps,
  caller: Caller,
  account: CurrentAccount,
  rawEmail: string,
  log: FastifyBaseLogger,
): Promise<AddUserResult> {
  requireOwner(account);
  const email = normalizeEmail(rawEmail);
  if (!email) throw badRequest(Messages.userEmailRequired);
  if (!isValidEmail(email)) throw badRequest(Messages.invalidEmail);
  await enforce(deps.limiter, [[`account-users:${account.id}`, ADDS_PER_ACCOUNT]]);

  const hasUser = await deps.db.transaction().execute(async (trx) => {
    // The owner sees the members already: this refusal tells them nothing new.
    if (await access.isMemberByEmail(trx, account.id, email)) throw badRequest(Messages.alreadyMember(email));
    const invited = await access.insertInvitation(trx, {
      accountId: account.id,
      email,
      roleName: MEMBER_ROLE,
      invitedBy: caller.userId,
    });
    if (!invited) throw badRequest(Messages.alreadyInvited(email));
    return (await access.findConfirmedUserByEmail(trx, email)) !== undefined;
  });

  const accountName = (await findAccountName(deps.db, account.id)) ?? '';
  // Only the invited person reads the e-mail: it may say sign in rather than sign up.
  const mail = hasUser ? signInInvitationMail : invitationMail;
  // The invitation stands whatever happens to the e-mail: a failed send is logged, not answered
  // as a failed addition the owner would retry into "already invited".
  await deps.mailer
    .send(mail(deps.config, { to: email, by: caller.email, accountId: account.id, accountName }))
    .catch((error: unknown) => log.error({ err: error, accountId: account.id }, 'account access e-mail failed'));
  return { email, status: 'INVITED' };
}

/** A signed-up user joins every account that invited their confirmed e-mail, as a MEMBER. */
export async function joinInvitedAccounts(db: Db, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const email = await access.findConfirmedEmail(trx, userId);
    if (email) await access.acceptInvitations(trx, userId, email);
  });
}

/**
 * Remove (spec B §5, §6): the owner takes a member out, or cancels a pending invitation; neither
 * the owner nor the caller can be removed. The guard checks membership on every request, so the
 * removed user's next call is refused.
 */
export async function removeUser(db: Db, caller: Caller, account: CurrentAccount, id: string): Promise<void> {
  requireOwner(account);
  if (!UUID.test(id)) throw notFound(Messages.userNotInAccount);
  if (id === caller.userId) throw badRequest(Messages.cannotRemoveSelf);
  await db.transaction().execute(async (trx) => {
    const member = await access.findMember(trx, account.id, id);
    if (member?.roleName === OWNER_ROLE) throw badRequest(Messages.cannotRemoveOwner);
    if (member ? await access.deleteMember(trx, account.id, id) : await access.deleteInvitation(trx, account.id, id)) {
      return;
    }
    // A row listed as an invitation the user has accepted since: the member it became is removed.
    const joined = await access.findMemberByInvitation(trx, account.id, id);
    if (joined && joined.roleName !== OWNER_ROLE && joined.userId !== caller.userId) {
      await access.deleteMember(trx, account.id, joined.userId);
      return;
    }
    throw notFound(Messages.userNotInAccount);
  });
}

interface MailFacts {
  to: string;
  by: string;
  accountId: string;
  accountName: string;
}

const signInInvitationMail = (config: Config, f: MailFacts): Mail => ({
  to: f.to,
  subject: `You are invited to ${quotedName(f.accountName)} on ${config.PRODUCT_NAME}`,
  text:
    `${f.by} invited you to the account ${quotedName(f.accountName)} on ${config.PRODUCT_NAME}. ` +
    `Sign in at ${config.PUBLIC_URL}/accounts and you will find it in your accounts.`,
});

const invitationMail = (config: Config, f: MailFacts): Mail => ({
  to: f.to,
  subject: `You are invited to ${quotedName(f.accountName)} on ${config.PRODUCT_NAME}`,
  text:
    `${f.by} invited you to the account ${quotedName(f.accountName)} on ${config.PRODUCT_NAME}. ` +
    `Sign up with this e-mail address (${f.to}) at ${config.PUBLIC_URL}/sign-up and you will join it ` +
    'once your e-mail is verified.',
});

// What other modules use of this module's store, and only that: they never import the store.
export { acceptInvitations } from './account-access.store.ts';
