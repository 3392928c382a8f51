import { describe, expect, it } from 'vitest';
import { isStrongPassword, isValidAccountName, isValidEmail, normalizeEmail, shortenAccountId } from './rules.ts';
import { isSuccessWrapper } from './wrapper.ts';

describe('account name rule', () => {
  it.each(['a', 'Main net', 'ops_1.2/3=4+5-6', 'x'.repeat(256), 'tab\there'])('accepts %j', (name) => {
    expect(isValidAccountName(name)).toBe(true);
  });
  it.each(['', 'x'.repeat(257), 'émile', '日本', 'semi;colon', 'a@b', 'rocket 🚀'])('refuses %j', (name) => {
    expect(isValidAccountName(name)).toBe(false);
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
