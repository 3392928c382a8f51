import { describe, expect, it } from 'vitest';
import {
  hasControlCharacters,
  isStrongPassword,
  isValidAccountName,
  isValidEmail,
  normalizeEmail,
  quotedName,
  shortenAccountId,
} from './rules.ts';
import { isSuccessWrapper } from './wrapper.ts';

describe('account name rule', () => {
  it.each(['a', 'Main net', 'ops_1.2/3=4+5-6', 'x'.repeat(256), 'no\u00a0break'])('accepts %j', (name) => {
    expect(isValidAccountName(name)).toBe(true);
  });
  it.each(['', 'x'.repeat(257), 'émile', '日本', 'semi;colon', 'a@b', 'rocket 🚀'])('refuses %j', (name) => {
    expect(isValidAccountName(name)).toBe(false);
  });
  // Names go into e-mails: a line of their own could pass for the service's words.
  it.each([
    'tab\there',
    'Ops\r\nSECURITY NOTICE. Your account is locked',
    'line\nbreak',
    'sep\u2028arator',
    'nul\u0000',
  ])('refuses %j, which holds a control character', (name) => {
    expect(hasControlCharacters(name)).toBe(true);
    expect(isValidAccountName(name)).toBe(false);
  });
});

describe('names in e-mails', () => {
  it('are quoted as data, on one line', () => {
    expect(quotedName('Shared ops')).toBe('"Shared ops"');
    expect(quotedName('Ops\r\n\r\nSECURITY NOTICE')).toBe('"Ops SECURITY NOTICE"');
  });
});

describe('e-mail input', () => {
  it('removes spaces and lower-cases', () => {
    expect(normalizeEmail('  Ann.Lee @Example.COM ')).toBe('ann.lee@example.com');
  });
  it.each([
    ['ann@example.com', true],
    ['ann@example', false],
    ['ann.example.com', false],
    ['a@b@c.com', false],
  ])('%s valid: %s', (email, valid) => {
    expect(isValidEmail(email)).toBe(valid);
  });
});

describe('password policy', () => {
  it.each([
    ['abcdefg1', true],
    ['correct horse 1', true],
    ['abcdefgh', false],
    ['12345678', false],
    ['abc1', false],
    [`a1${'x'.repeat(127)}`, false],
  ])('%s strong: %s', (password, strong) => {
    expect(isStrongPassword(password)).toBe(strong);
  });
});

describe('account id display', () => {
  it('shows an ellipsis and the last 12 characters', () => {
    expect(shortenAccountId('3f2b8c1e-8a4d-4f5e-9b6a-7c8d9e0f1a2b')).toBe('...7c8d9e0f1a2b');
  });
});

describe('the lenient success rule (spec A §5)', () => {
  it.each([
    [{ statusCode: 200 }, true],
    [{ statusCode: 500 }, true],
    [{ status: 200 }, true],
    [{ status: 299 }, true],
    [{ status: 300 }, false],
    [{ statusCode: 199 }, false],
    [{}, false],
    [null, false],
  ])('%j is success: %s', (body, success) => {
    expect(isSuccessWrapper(body)).toBe(success);
  });
});
