import { endpoints, MEMBER_ROLE, Messages, type SpendingCapSetting } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { accountDetails, NO_SPENDING_CAP, TEST_ACCOUNT_ID } from '../../testing/account-details';
import {
  callsTo,
  type EndpointStub,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { SpendingCapCard } from './spending-cap-card';

const ACCOUNT = TEST_ACCOUNT_ID;
const { updateAccountSettings } = endpoints.billing;
const SAVED = 'Your spending cap has been saved.';

/** The card over an account whose cap starts as `initial`; the settings call saves what it is sent. */
function open(initial: SpendingCapSetting, roleName = 'OWNER', ...first: EndpointStub[]) {
  let spendingCap = initial;
  const autoDeposit = { autoDepositEnabled: true, minBalance: 5, autoDepositAmount: 20 };
  const calls = serveEndpoints(
    ...first,
    on(endpoints.accounts.details, () => wrapped(accountDetails({ roleName, setting: { autoDeposit, spendingCap } }))),
    on(updateAccountSettings, ({ body }) => {
      if (body.settingName !== 'spendingCap') return undefined;
      spendingCap = { ...spendingCap, ...body.fields };
      return wrapped(spendingCap, SAVED);
    }),
  );
  renderPage(
    `/account/${ACCOUNT}/billings/buyCredits`,
    '/account/:accountId/billings/buyCredits',
    <SpendingCapCard accountId={ACCOUNT} />,
  );
  return calls;
}

const card = async () =>
  (await screen.findByText('Spending cap', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;
/** The value beside a line of the rule. */
const ruleValue = (scope: HTMLElement, label: string) =>
  within(scope).getByText(label, { selector: '.ant-descriptions-item-label' }).nextElementSibling?.textContent;
const STOPS = "Stop RPC calls when this month's RPC usage reaches";
const AUTO_PAY = 'Auto Pay deposits at most';

setUpPageTests();

describe('SpendingCapCard', () => {
  it('the owner sets both amounts to the cent, hears the server, and sees them saved; an emptied field saves null', async () => {
    const calls = open(NO_SPENDING_CAP);
    const cap = await card();
    await waitFor(() => expect(ruleValue(cap, STOPS)).toBe('No cap'));
    expect(ruleValue(cap, AUTO_PAY)).toBe('No limit');

    const monthly = within(cap).getByLabelText('Monthly RPC cap (USD)') as HTMLInputElement;
    const autoPay = within(cap).getByLabelText('Auto Pay monthly maximum (USD)') as HTMLInputElement;
    expect([monthly.value, autoPay.value]).toEqual(['', '']);
    fireEvent.change(monthly, { target: { value: '25' } });
    fireEvent.change(autoPay, { target: { value: '100.5' } });
    fireEvent.click(within(cap).getByRole('button', { name: 'Save spending cap' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(SAVED));
    expect(callsTo(calls, updateAccountSettings).map((call) => call.body)).toEqual([
      { settingName: 'spendingCap', fields: { monthlyCapUsd: '25.00', autoPayMonthlyMaxUsd: '100.50' } },
    ]);
    await waitFor(() => expect(ruleValue(cap, STOPS)).toBe('$25.00'));
    expect(ruleValue(cap, AUTO_PAY)).toBe('$100.50 per month');
    expect(callsTo(calls, endpoints.accounts.details).length).toBeGreaterThan(1);

    fireEvent.change(monthly, { target: { value: '' } });
    fireEvent.click(within(cap).getByRole('button', { name: 'Save spending cap' }));
    await waitFor(() => expect(callsTo(calls, updateAccountSettings)).toHaveLength(2));
    expect(callsTo(calls, updateAccountSettings)[1]?.body).toEqual({
      settingName: 'spendingCap',
      fields: { monthlyCapUsd: null, autoPayMonthlyMaxUsd: '100.50' },
    });
    await waitFor(() => expect(ruleValue(cap, STOPS)).toBe('No cap'));
  });

  it('starts the form from the saved amounts and refuses one below a cent, sending nothing', async () => {
    const calls = open({ monthlyCapUsd: '1250.00', autoPayMonthlyMaxUsd: null });
    const cap = await card();
    await waitFor(() => expect(ruleValue(cap, STOPS)).toBe('$1,250.00'));
    const monthly = within(cap).getByLabelText('Monthly RPC cap (USD)') as HTMLInputElement;
    expect(monthly.value).toBe('1250.00');

    fireEvent.change(monthly, { target: { value: '0' } });
    fireEvent.click(within(cap).getByRole('button', { name: 'Save spending cap' }));

    expect(await within(cap).findByText(Messages.spendingCapRange)).toBeTruthy();
    expect(monthly.value).toBe('0.00');
    fireEvent.change(within(cap).getByLabelText('Auto Pay monthly maximum (USD)'), { target: { value: '-5' } });
    fireEvent.click(within(cap).getByRole('button', { name: 'Save spending cap' }));
    expect(await within(cap).findByText(Messages.autoPayMonthlyMaxRange)).toBeTruthy();
    expect(callsTo(calls, updateAccountSettings)).toHaveLength(0);
  });

  it('a member reads the cap and the Auto Pay limit, with no form to change them', async () => {
    const calls = open({ monthlyCapUsd: '40.00', autoPayMonthlyMaxUsd: '200.00' }, MEMBER_ROLE);
    const cap = await card();

    await waitFor(() => expect(ruleValue(cap, STOPS)).toBe('$40.00'));
    expect(ruleValue(cap, AUTO_PAY)).toBe('$200.00 per month');
    expect(within(cap).getByText(Messages.ownerOnlySpendingCap)).toBeTruthy();
    expect(within(cap).queryByRole('spinbutton')).toBeNull();
    expect(within(cap).queryByRole('button', { name: 'Save spending cap' })).toBeNull();
    expect(callsTo(calls, updateAccountSettings)).toHaveLength(0);
  });
});
