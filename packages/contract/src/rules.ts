/** Pure validation rules shared by the server (authoritative) and the web forms. */

/**
 * Line breaks, tabs and every other control character (and the Unicode line and paragraph
 * separators): no name holds one, since names go into e-mails, where a line of its own could pass
 * for the service's words.
 */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;
export const hasControlCharacters = (text: string) => text.search(CONTROL_CHARACTERS) >= 0;
/** The text on one line: each run of control characters becomes a space. */
export const oneLine = (text: string) => text.replace(CONTROL_CHARACTERS, ' ');

/**
 * spec A §5: 1 to 256 of word characters, whitespace, _ . / = + - (only ASCII word characters pass);
 * of whitespace, no line break or tab (hasControlCharacters).
 */
export const ACCOUNT_NAME_PATTERN = '^[\\w\\s./=+-]{1,256}$';
export const isValidAccountName = (name: string) =>
  new RegExp(ACCOUNT_NAME_PATTERN).test(name) && !hasControlCharacters(name);

/** A name as e-mails quote it: in quotation marks, as data rather than the mail's own words. */
export const quotedName = (name: string) => `"${oneLine(name)}"`;
export const MAX_ACCOUNTS_PER_USER = 10;
export const HIDDEN_ACCOUNT_NAME = 'ACCOUNT_CREATION';

/** spec B §2: the e-mail input removes spaces and is lower-cased. */
export const normalizeEmail = (email: string) => email.replace(/\s/g, '').toLowerCase();
export const EMAIL_PATTERN = '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$';
export const isValidEmail = (email: string) => email.length <= 254 && new RegExp(EMAIL_PATTERN).test(email);

/** Our password policy (the spec names none): 8-128 characters with a letter and a digit. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const isStrongPassword = (password: string) =>
  password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX && /\p{L}/u.test(password) && /\d/.test(password);

export const CODE_PATTERN = '^\\d{6}$';
export const RESEND_COUNTDOWN_SECONDS = 60;
export const USER_INFO_DELAY_MS = 1000;

/** spec A §2: Account ID is shown as an ellipsis followed by its last 12 characters. */
export const shortenAccountId = (id: string) => (id.length > 12 ? `...${id.slice(-12)}` : id);
