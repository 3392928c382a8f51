import { describe, expect, it } from 'vitest';
import { errorText } from './toast';

describe('errorText', () => {
  it('shows an error by its message', () => {
    expect(errorText(new Error('Incorrect username or password.'))).toBe('Incorrect username or password.');
  });

  it('shows a value that is not a string as JSON text', () => {
    expect(errorText({ message: { code: 7 } })).toBe('{"code":7}');
    expect(errorText({ reason: 'x' })).toBe('{"reason":"x"}');
  });

  it('shows a string as it is', () => {
    expect(errorText('Nope')).toBe('Nope');
  });
});
