import { expect } from '@playwright/test';
import { test } from './fixtures.ts';
import { createAccountOverApi, logIn, signUpOverApi } from './support.ts';

/**
 * The console runs under its Content-Security-Policy (scripts from its own origin only): no page
 * of a signed-in session, nor the API docs, trips it. The refresh token stays out of script's reach.
 */
test('the console runs under its Content-Security-Policy, and keeps no token where script can read it', async ({
  page,
  request,
  context,
}) => {
  // Every page of a signed-in session and the API docs: past 90 s beside another journey on two cores.
  test.setTimeout(180_000);
  const violations: string[] = [];
  await context.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });

  const { email, password } = await signUpOverApi(request);
  const accountId = await createAccountOverApi(request, email, password, 'Policy journey');

  const first = await page.goto('/login');
  expect(first?.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
  expect(first?.headers()['x-frame-options']).toBe('DENY');
  await page.goto('/forgot-password');
  await expect(page.getByRole('button', { name: 'Send request' })).toBeVisible();
  await logIn(page, email, password);

  const pages = ['overview', 'services', 'services/rpc', 'apiKeys', 'billings/overview', 'billings/addPaymentCard'];
  for (const path of [...pages, 'settings', 'contactUs']) {
    await page.goto(`/account/${accountId}/${path}`);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: `user ${email}` })).toBeVisible();
  }

  // The session is kept as the spec says (user and current account), the identity token in memory
  // only, and the refresh token in an httpOnly cookie that script cannot read.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(stored).toContain(email);
  expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  expect(await page.evaluate(() => document.cookie)).not.toContain('ebs_refresh');
  const refresh = (await context.cookies()).find((cookie) => cookie.name === 'ebs_refresh');
  expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/auth' });
  expect(stored).not.toContain(refresh?.value);

  await page.goto('/api/docs/');
  await expect(page.getByText('EBS Console API', { exact: false }).first()).toBeVisible();

  expect(violations).toEqual([]);
});
