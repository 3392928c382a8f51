import { type ApiKeySettings, endpoints, Messages, type UpdateApiKeySettingsBody } from '@ebs/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { vi } from 'vitest';
import { toast } from '../../lib/toast';
import { apiKey, keyList } from '../../testing/api-keys';
import { type EndpointStub, on, renderPage, serveEndpoints, wrapped } from '../../testing/page-test-kit';
import { ApiKeysPage } from './api-keys-page';

/** Helpers of the page tests of a key's details drawer: the page over a stand-in of the settings. */

export const ACCOUNT = '11111111-1111-4111-8111-111111111111';
export const KEY_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const JWT_KEY_ID = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
export const NEW_SECRET = 'bmV3LXNlY3JldC1hZnRlci1hLXJvbGwtMDEyMzQ1Njc4OQ';
const production = apiKey(KEY_ID, 'Production', 'ACTIVE');

const { list, settings, updateSettings, roll } = endpoints.keys;

/** The settings after an update, as the server would answer them: new public keys get an id. */
function applied(current: ApiKeySettings, body: UpdateApiKeySettingsBody): ApiKeySettings {
  const { jwtPublicKeys, ...rest } = body;
  return {
    ...current,
    ...rest,
    jwtPublicKeys:
      jwtPublicKeys?.map((_key, i) => ({
        id: `eeeeeeee-eeee-4eee-8eee-00000000000${i}`,
        algorithm: 'ES256' as const,
        createdAt: '2026-11-22T08:00:00.000Z',
      })) ?? current.jwtPublicKeys,
  };
}

/** The page with the Production key whose settings start as `initial`; the stubs in `first` answer before. */
export function openKeysPage(initial: ApiKeySettings, ...first: EndpointStub[]) {
  let current = initial;
  const calls = serveEndpoints(
    ...first,
    on(list, () => wrapped(keyList([production]))),
    on(settings, () => wrapped(current)),
    on(updateSettings, ({ body }) => {
      current = applied(current, body);
      return wrapped(current, Messages.apiKeySettingsSaved);
    }),
    on(roll, ({ params, body }) =>
      wrapped(
        {
          key: { keyId: params.apiKeyId, key: NEW_SECRET },
          previousKeyWorksUntil: body.overlapSeconds ? '2026-11-28T13:00:00.000Z' : null,
        },
        Messages.apiKeyRolled,
      ),
    ),
  );
  renderPage(`/account/${ACCOUNT}/apiKeys`, '/account/:accountId/apiKeys', <ApiKeysPage />);
  return calls;
}

export const drawer = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-drawer-title' })).closest('.ant-drawer-content') as HTMLElement;
export const dialog = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-modal-title' })).closest('[role="dialog"]') as HTMLElement;
export const button = (scope: HTMLElement, name: string) =>
  within(scope).getByRole('button', { name }) as HTMLButtonElement;
export const lastError = () => (vi.mocked(toast.error).mock.calls.at(-1)?.[0] as Error | undefined)?.message;

/** Presses Enter in `input`: down and up, as antd's select adds a typed entry once per press. */
export const pressEnter = (input: HTMLElement) => {
  const enter = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 };
  fireEvent.keyDown(input, enter);
  fireEvent.keyUp(input, enter);
};

/** Clicks Security in the Production key's row and answers the drawer once its settings show. */
export async function openSecurity() {
  const row = (await screen.findByText('Production', { selector: 'td span' })).closest('tr') as HTMLElement;
  fireEvent.click(button(row, 'Security'));
  const details = await drawer('Production');
  await within(details).findByRole('button', { name: 'Save' });
  return details;
}

/** The form item labelled `label`: its control, entries, hint and message. */
export const field = (scope: HTMLElement, label: string) =>
  within(scope).getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;

export const type = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
