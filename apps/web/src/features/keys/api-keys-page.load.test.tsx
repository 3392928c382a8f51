import { type ApiKeyList, endpoints } from '@ebs/contract';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiKey, keyList } from '../../testing/api-keys';
import {
  callsTo,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { ApiKeysPage } from './api-keys-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const production = apiKey('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Production', 'ACTIVE');
const HINT = 'No API keys yet. Create one with Generate New API Keys.';

const open = (answer: () => Reply<ApiKeyList> | Promise<Reply<ApiKeyList>>) => {
  const calls = serveEndpoints(on(endpoints.keys.list, answer));
  renderPage(`/account/${ACCOUNT}/apiKeys`, '/account/:accountId/apiKeys', <ApiKeysPage />);
  return calls;
};

const placeholder = () => document.querySelector('.ant-table-placeholder');

setUpPageTests();

describe('ApiKeysPage: loading, empty and failed states', () => {
  it('shows no "No data" and no hint while the keys load, then says how to create the first key', async () => {
    let answer: (reply: Reply<ApiKeyList>) => void = () => {};
    open(() => new Promise<Reply<ApiKeyList>>((resolve) => (answer = resolve)));

    await screen.findByText('API Key Management');
    await vi.waitFor(() => expect(placeholder()).not.toBeNull());
    expect(placeholder()?.textContent).toBe('');
    expect(screen.queryByText(HINT)).toBeNull();

    answer(wrapped(keyList([])));
    expect(await screen.findByText(HINT)).toBeTruthy();
    expect(placeholder()?.textContent).toBe(HINT);
  });

  it('says what to do when the list fails to load, and Try again fetches it again', async () => {
    let attempt = 0;
    const calls = open(() => {
      attempt += 1;
      return attempt === 1 ? failed(503, 'Keys are resting') : wrapped(keyList([production]));
    });

    expect(await screen.findByText(/Keys are resting/)).toBeTruthy();
    expect(screen.getByText(/Check your connection, then try again\./)).toBeTruthy();
    expect(screen.queryByText(HINT)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Production')).toBeTruthy();
    expect(callsTo(calls, endpoints.keys.list)).toHaveLength(2);
    expect(screen.queryByText(/Keys are resting/)).toBeNull();
  });
});
