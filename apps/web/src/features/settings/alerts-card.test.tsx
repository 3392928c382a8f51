import { type AlertSettings, endpoints, type UserRole } from '@ebs/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, on, renderPage, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { AlertsCard } from './alerts-card';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const MEMBER = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const users: UserRole[] = [
  {
    id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
    email: 'owner@example.com',
    firstName: 'A',
    lastName: 'O',
    roleName: 'OWNER',
  },
  { id: MEMBER, email: 'member@example.com', firstName: 'M', lastName: 'M', roleName: 'MEMBER' },
];
const settings: AlertSettings = {
  alerts: [
    { kind: 'LOW_CREDIT', enabled: false, threshold: 5 },
    { kind: 'DAILY_SPEND', enabled: false, threshold: 10 },
    { kind: 'KEY_DAILY_LIMIT', enabled: false, threshold: 80 },
    { kind: 'ERROR_RATE', enabled: false, threshold: 5 },
  ],
  recipients: [],
};

function open(canManage: boolean) {
  const calls = serveEndpoints(
    on(endpoints.accounts.alerts, () => wrapped(settings)),
    on(endpoints.accounts.updateAlerts, (call) => wrapped(call.body)),
  );
  renderPage(
    `/account/${ACCOUNT}/settings`,
    '/account/:accountId/settings',
    <AlertsCard accountId={ACCOUNT} users={users} canManage={canManage} />,
  );
  return calls;
}

setUpPageTests();

describe('AlertsCard', () => {
  it('lets the owner turn an alert on at a threshold and choose a member to tell', async () => {
    const calls = open(true);
    const low = await screen.findByRole('checkbox', { name: 'Available credit below' });
    await waitFor(() => expect((low as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(low);
    const threshold = screen.getByRole('spinbutton', { name: 'Available credit below (USD)' });
    fireEvent.change(threshold, { target: { value: '2.5' } });
    fireEvent.blur(threshold);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Also e-mail these members' }));
    fireEvent.click(await screen.findByText('member@example.com', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save alerts' }));
    await waitFor(() => expect(callsTo(calls, endpoints.accounts.updateAlerts)).toHaveLength(1));
    const sent = callsTo(calls, endpoints.accounts.updateAlerts)[0]?.body;
    expect(sent?.alerts[0]).toEqual({ kind: 'LOW_CREDIT', enabled: true, threshold: 2.5 });
    expect(sent?.recipients).toEqual([MEMBER]);
  });

  it('shows a member the alerts without a way to change them', async () => {
    open(false);
    const low = await screen.findByRole('checkbox', { name: 'Available credit below' });
    expect((low as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save alerts' })).toBeNull();
  });
});
