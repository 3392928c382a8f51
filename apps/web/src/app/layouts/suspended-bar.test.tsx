import { Messages } from '@ebs/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { SuspendedBar } from './suspended-bar';

afterEach(cleanup);

describe('SuspendedBar', () => {
  it('shows the suspended text with a deposit link to buyCredits', () => {
    render(
      <MemoryRouter>
        <SuspendedBar accountId="a1" />
      </MemoryRouter>,
    );

    expect(screen.getByText(Messages.suspended, { exact: false })).toBeTruthy();
    const link = screen.getByRole('link', { name: Messages.clickToDeposit });
    expect(link.getAttribute('href')).toBe('/account/a1/billings/buyCredits');
    expect(screen.getByRole('button', { name: /close/i })).toBeTruthy();
  });

  it('explains in a tooltip that re-activation after a deposit takes a while', async () => {
    render(
      <MemoryRouter>
        <SuspendedBar accountId="a1" />
      </MemoryRouter>,
    );
    fireEvent.mouseEnter(screen.getByLabelText(Messages.suspendedTooltip));
    expect((await screen.findByRole('tooltip')).textContent).toBe(Messages.suspendedTooltip);
  });
});
