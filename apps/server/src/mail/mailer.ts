import nodemailer from 'nodemailer';
import type { Db } from '../db/database.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Outside production without SMTP, mail lands in the dev outbox (/dev/mailbox) and the server log. */
export function outboxMailer(db: Db, log: { info(fields: object, message: string): void }): Mailer {
  return {
    async send(mail) {
      await db
        .insertInto('mail_outbox')
        .values({ to_email: mail.to, subject: mail.subject, text: mail.text })
        .execute();
      log.info({ to: mail.to, subject: mail.subject }, `dev outbox: ${mail.text}`);
    },
  };
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

export interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

export async function readOutbox(db: Db, to: string | undefined, limit = 50): Promise<OutboxEntry[]> {
  let query = db
    .selectFrom('mail_outbox')
    .select(['to_email', 'subject', 'text', 'created_at'])
    .orderBy('id', 'desc')
    .limit(limit);
  if (to) query = query.where('to_email', '=', to);
  const rows = await query.execute();
  return rows.map((r) => ({ to: r.to_email, subject: r.subject, text: r.text, createdAt: r.created_at.toISOString() }));
}
