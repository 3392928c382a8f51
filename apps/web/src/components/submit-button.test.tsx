import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubmitButton } from './submit-button';

describe('SubmitButton', () => {
  it('spins and refuses a second submit while the call runs, keeping its name', () => {
    const { rerender } = render(<SubmitButton pending>Pay</SubmitButton>);
    const button = screen.getByRole('button', { name: 'Pay' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.querySelector('.anticon-loading')).not.toBeNull();

    rerender(<SubmitButton pending={false}>Pay</SubmitButton>);
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-busy')).toBe('false');
    expect(button.querySelector('.anticon-loading')).toBeNull();
  });
});
