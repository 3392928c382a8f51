import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Secrets } from '../secrets.ts';

/** A secret to look for, by name (what a failure says) and by value or pattern. */
export interface Wanted {
  name: string;
  value: string | RegExp;
}

/** Where each wanted secret was found in the texts: `name in where`, empty when none was. */
export function findSecrets(texts: Array<{ where: string; text: string }>, wanted: Wanted[]): string[] {
  const found: string[] = [];
  for (const { where, text } of texts) {
    for (const { name, value } of wanted) {
      const hit = typeof value === 'string' ? value.length > 0 && text.includes(value) : value.test(text);
      if (hit) found.push(`${name} in ${where}`);
    }
  }
  return found;
}

/** A six-digit code as itself, not as part of a longer number (a timestamp, a port). */
export const codeAlone = (code: string) => new RegExp(`(?<!\\d)${code}(?!\\d)`);

/** The server's own secrets, in every form they are kept or handled in. */
export function serverSecrets(secrets: Secrets): Wanted[] {
  const pem = secrets.signingKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
  return [
    { name: 'wallet seed', value: secrets.walletSeed.toString('hex') },
    { name: 'data key', value: secrets.dataKey.toString('base64url') },
    { name: 'data key (hex)', value: secrets.dataKey.toString('hex') },
    { name: 'HMAC secret', value: secrets.hmacSecret },
    { name: 'admin token', value: secrets.adminToken },
    // A run of the key's DER in base64 is what a PEM file holds between its armour lines.
    { name: 'signing key', value: pem.slice(20, 60) },
    { name: 'a private key', value: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  ];
}

/** Every row of every table of the database as JSON text, one text per table. */
export async function tableTexts(db: Db): Promise<Array<{ where: string; text: string }>> {
  const { rows: tables } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const texts: Array<{ where: string; text: string }> = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(name)} t`.execute(
      db,
    );
    texts.push({ where: `table ${name}`, text: rows.map((r) => r.row).join('\n') });
  }
  return texts;
}

/** The columns of the database whose name says they would hold a card number or security code. */
export async function cardDataColumns(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select table_name || '.' || column_name as name
    from information_schema.columns where table_schema = current_schema()
    and (column_name ~* '(card_?number|^pan$|^number$|cvc|cvv|security_code)')`.execute(db);
  return rows.map((r) => r.name);
}

/** A 16-digit Visa number that passes the Luhn check and that no other test uses (14 random digits). */
export function uniqueCardNumber(): string {
  const body = `4${Array.from({ length: 14 }, () => Math.floor(Math.random() * 10)).join('')}`;
  const digits = [...body].reverse().map(Number);
  const sum = digits.reduce((total, d, i) => {
    const doubled = i % 2 === 0 ? d * 2 : d;
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}
