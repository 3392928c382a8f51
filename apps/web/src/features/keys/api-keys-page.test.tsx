import { type ApiKey, type CreatedApiKey, type Endpoint, endpoints, Messages } from '@ebs/contract';
import { fireEvent, getDefaultNormalizer, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { apiKey, keyList } from '../../testing/api-keys';
import { stubClipboard } from '../../testing/clipboard';
import {
  callsTo,
  type EndpointStub,
  type FetchCall,
  failed,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { ApiKeysPage } from './api-keys-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const SECRET = 'Zm9vYmFyYmF6cXV4LXNlY3JldC1rZXktMDEyMzQ1Njc';

const live = apiKey('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Production', 'ACTIVE');
const paused = apiKey('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Staging', 'INACTIVE');

const { list, create, rename, activate, deactivate, remove } = endpoints.keys;

/**
 * The page over a small stand-in of the key service: it keeps `keys` and answers as the server
 * does; the stubs in `first` may answer a call before it (a refusal, say).
 */
function open(initial: ApiKey[], ...first: EndpointStub[]) {
  return openWith({ pathname: `/account/${ACCOUNT}/apiKeys`, state: null }, initial, ...first);
}

function openWith(path: { pathname: string; state: unknown }, initial: ApiKey[], ...first: EndpointStub[]) {
  let keys = [...initial];
  const change = (id: string, patch: Partial<ApiKey>, message: string) => {
    const current = keys.find((k) => k.id === id);
    if (!current) return failed(404, Messages.apiKeyNotFound, 'Not Found');
    const changed = { ...current, ...patch };
    keys = keys.map((k) => (k.id === id ? changed : k));
    return wrapped(changed, message);
  };
  const calls = serveEndpoints(
    ...first,
    on(list, ({ query }) => (query.limit === '100' && query.offset === '0' ? wrapped(keyList(keys)) : undefined)),
    on(create, ({ body }) => {
      const created: CreatedApiKey = {
        ...apiKey('cccccccc-cccc-4ccc-8ccc-cccccccccccc', body.apiKeyName, 'ACTIVE'),
        key: { keyId: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', key: SECRET },
      };
      keys = [...keys, apiKey(created.id, body.apiKeyName, 'ACTIVE')];
      return wrapped(created, Messages.createdName(body.apiKeyName));
    }),
    on(rename, ({ params, body }) =>
      change(
        params.apiKeyId,
        { name: body.apiKeyName, apiKeyName: body.apiKeyName },
        Messages.updatedName(body.apiKeyName),
      ),
    ),
    on(activate, ({ params }) => change(params.apiKeyId, { status: 'ACTIVE' }, Messages.apiKeyActivated)),
    on(deactivate, ({ params }) => change(params.apiKeyId, { status: 'INACTIVE' }, Messages.apiKeyDeactivated)),
    on(remove, ({ params }) => {
      if (!keys.some((k) => k.id === params.apiKeyId)) return failed(404, Messages.apiKeyNotFound, 'Not Found');
      keys = keys.filter((k) => k.id !== params.apiKeyId);
      return wrapped({}, Messages.apiKeyDeleted);
    }),
  );
  renderPage(path, '/account/:accountId/apiKeys', <ApiKeysPage />);
  return calls;
}

const row = async (name: string) =>
  (await screen.findByText(name, { selector: 'td span' })).closest('tr') as HTMLElement;
const dialog = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-modal-title' })).closest('[role="dialog"]') as HTMLElement;
/** The calls of `endpoint` about the key `apiKeyId`. */
const callsAbout = (calls: FetchCall[], endpoint: Endpoint, apiKeyId: string) =>
  callsTo(calls, endpoint).filter((c) => (c.params as Record<string, string>).apiKeyId === apiKeyId);
const button = (scope: HTMLElement, name: string) => within(scope).getByRole('button', { name }) as HTMLButtonElement;
/** Exact text, spaces as written: the spec's "API  key" has two. */
const exact = { normalizer: getDefaultNormalizer({ collapseWhitespace: false, trim: false }) };
const lastError = () => (vi.mocked(toast.error).mock.calls.at(-1)?.[0] as Error | undefined)?.message;

setUpPageTests();

describe('ApiKeysPage: the table', () => {
  it('fetches 100 keys at offset 0 for the account and shows name, status and the actions by status', async () => {
    const calls = open([live, paused]);

    expect(await screen.findByText('API Key Management')).toBeTruthy();
    const production = await row('Production');
    const staging = await row('Staging');
    expect(callsTo(calls, list)[0]?.headers['ebs-account-id']).toBe(ACCOUNT);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'API Key Name',
      'Status',
      'Actions',
    ]);

    expect(within(production).getByText('ACTIVE')).toBeTruthy();
    expect(button(production, 'Deactivate')).toBeTruthy();
    expect(within(production).queryByRole('button', { name: 'Activate' })).toBeNull();
    expect(button(production, 'Delete').disabled).toBe(true);
    // Why Delete is disabled: its description, and a tooltip on hover.
    const disabledDelete = button(production, 'Delete');
    expect(document.getElementById(disabledDelete.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Deactivate the key before deleting it.',
    );
    fireEvent.mouseEnter(disabledDelete.parentElement as HTMLElement);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Deactivate the key before deleting it.');
    expect(button(production, 'Edit API key name')).toBeTruthy();

    expect(within(staging).getByText('INACTIVE')).toBeTruthy();
    expect(button(staging, 'Activate')).toBeTruthy();
    expect(within(staging).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    expect(button(staging, 'Delete').disabled).toBe(false);
  });

  it('shows a failed list fetch as the service words it', async () => {
    open(
      [],
      on(list, () => failed(403, Messages.notAMember, 'Forbidden')),
    );
    await waitFor(() => expect(lastError()).toBe(Messages.notAMember));
  });
});

describe('ApiKeysPage: Generate New API Keys', () => {
  it('refuses an empty or blank name with "API key name is required." and sends nothing', async () => {
    const calls = open([]);
    fireEvent.click(await screen.findByRole('button', { name: /Generate New API Keys/ }));
    const modal = await dialog('Create API Key');

    fireEvent.click(button(modal, 'Create'));
    expect(await within(modal).findByText('API key name is required.', exact)).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('API Key Name'), { target: { value: '   ' } });
    fireEvent.click(button(modal, 'Create'));
    await within(modal).findByText('API key name is required.', exact);

    expect(callsTo(calls, create)).toHaveLength(0);
  });

  it("opens Create API Key at once when the RPC page's Create New Key sent the user here", async () => {
    openWith({ pathname: `/account/${ACCOUNT}/apiKeys`, state: { create: true } }, [live]);
    const form = await dialog('Create API Key');
    expect(within(form).getByLabelText('API Key Name')).toBeTruthy();
  });

  it('creates, shows the key id and the key once with copy buttons, and forgets them after Done', async () => {
    const writeText = stubClipboard();
    const calls = open([live]);
    fireEvent.click(await screen.findByRole('button', { name: /Generate New API Keys/ }));
    const form = await dialog('Create API Key');
    fireEvent.change(within(form).getByLabelText('API Key Name'), { target: { value: ' Mobile app ' } });
    fireEvent.click(button(form, 'Create'));

    const shown = await dialog('Your New API Key');
    expect(callsTo(calls, create)[0]?.body).toEqual({
      apiKeyName: 'Mobile app',
    });
    expect(toast.success).toHaveBeenCalledWith('Mobile app has been created.');
    expect(within(shown).getByText(/displayed only once/)).toBeTruthy();
    const idPart = within(shown).getByRole('region', { name: 'API Key ID' });
    const keyPart = within(shown).getByRole('region', { name: 'API Key' });
    expect(within(idPart).getByText('cccccccc-cccc-4ccc-8ccc-cccccccccccc')).toBeTruthy();
    expect(within(keyPart).getByText(SECRET)).toBeTruthy();

    fireEvent.click(button(keyPart, 'Copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    expect(toast.success).toHaveBeenLastCalledWith('Text has been copied to clipboard.');
    fireEvent.click(button(idPart, 'Copy'));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('cccccccc-cccc-4ccc-8ccc-cccccccccccc'));

    // Only Done closes it: no close icon, and neither Escape nor a click outside does anything.
    expect(within(shown).queryByRole('button', { name: /close/i })).toBeNull();
    fireEvent.keyDown(shown, { key: 'Escape', code: 'Escape', keyCode: 27 });
    fireEvent.click(shown.closest('.ant-modal-wrap') as HTMLElement);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByText(SECRET)).toBeTruthy();

    fireEvent.click(button(shown, 'Done'));
    await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
    expect(document.body.innerHTML).not.toContain(SECRET);
    const added = await row('Mobile app');
    expect(within(added).getByText('ACTIVE')).toBeTruthy();
  });

  it.each([
    ['the cap on keys', 400, Messages.apiKeyLimit, 'Bad Request'],
    ['the hourly limit on creates', 429, Messages.apiKeyHourlyLimit, 'Too Many Requests'],
  ])(
    'keeps the create modal open and shows the refusal (%s) as the service words it',
    async (_case, status, message, error) => {
      open(
        [],
        on(create, () => failed(status, message, error)),
      );
      fireEvent.click(await screen.findByRole('button', { name: /Generate New API Keys/ }));
      const modal = await dialog('Create API Key');
      fireEvent.change(within(modal).getByLabelText('API Key Name'), { target: { value: 'One too many' } });
      fireEvent.click(button(modal, 'Create'));

      await waitFor(() => expect(lastError()).toBe(message));
      expect(screen.getByText('Create API Key', { selector: '.ant-modal-title' })).toBeTruthy();
      expect(screen.queryByText('Your New API Key')).toBeNull();
    },
  );
});

describe('ApiKeysPage: Edit API Key', () => {
  it('starts with the current name, refuses an emptied one with "API  key name is required." (two spaces)', async () => {
    const calls = open([live]);
    fireEvent.click(button(await row('Production'), 'Edit API key name'));
    const modal = await dialog('Edit API Key');
    const input = within(modal).getByLabelText('API Key Name') as HTMLInputElement;
    expect(input.value).toBe('Production');

    fireEvent.change(input, { target: { value: '  ' } });
    fireEvent.click(button(modal, 'Update'));
    expect(await within(modal).findByText('API  key name is required.', exact)).toBeTruthy();
    expect(callsTo(calls, rename)).toHaveLength(0);

    fireEvent.click(button(modal, 'Cancel'));
    await waitFor(() => expect(screen.queryByText('Edit API Key', { selector: '.ant-modal-title' })).toBeNull());
  });

  it('renames: "{name} has been updated." and the new name in the table', async () => {
    const calls = open([live]);
    fireEvent.click(button(await row('Production'), 'Edit API key name'));
    const modal = await dialog('Edit API Key');
    fireEvent.change(within(modal).getByLabelText('API Key Name'), { target: { value: 'Production EU' } });
    fireEvent.click(button(modal, 'Update'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Production EU has been updated.'));
    expect(callsAbout(calls, rename, live.id)[0]?.body).toEqual({
      apiKeyName: 'Production EU',
    });
    expect(await row('Production EU')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Edit API Key', { selector: '.ant-modal-title' })).toBeNull());
  });
});

describe('ApiKeysPage: status and deletion', () => {
  it('activates an INACTIVE key at once, with an empty body: "API key has been activated."', async () => {
    const calls = open([paused]);
    fireEvent.click(button(await row('Staging'), 'Activate'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('API key has been activated.'));
    const [call] = callsAbout(calls, activate, paused.id);
    expect(call?.method).toBe('POST');
    expect(call?.body).toBeUndefined();
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(async () => expect(within(await row('Staging')).getByText('ACTIVE')).toBeTruthy());
  });

  it('deactivates only after the spec confirmation: "API  key has been deactivated."', async () => {
    const calls = open([live]);
    fireEvent.click(button(await row('Production'), 'Deactivate'));
    const modal = await dialog('Deactivate API Key');
    expect(
      within(modal).getByText(
        'Confirm to deactivate API key? API key cannot be used to access any services once deactivated.',
        exact,
      ),
    ).toBeTruthy();

    fireEvent.click(button(modal, 'Cancel'));
    await waitFor(() => expect(screen.queryByText('Deactivate API Key')).toBeNull());
    expect(callsAbout(calls, deactivate, live.id)).toHaveLength(0);

    fireEvent.click(button(await row('Production'), 'Deactivate'));
    fireEvent.click(button(await dialog('Deactivate API Key'), 'Deactivate'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('API  key has been deactivated.'));
    expect(callsAbout(calls, deactivate, live.id)).toHaveLength(1);
    const production = await row('Production');
    await waitFor(() => expect(button(production, 'Delete').disabled).toBe(false));
    expect(within(production).getByText('INACTIVE')).toBeTruthy();
  });

  it('deletes an INACTIVE key after the spec confirmation: "API key has been deleted." and the row is gone', async () => {
    const calls = open([live, paused]);
    fireEvent.click(button(await row('Staging'), 'Delete'));
    const modal = await dialog('Delete API Key');
    expect(
      within(modal).getByText(
        'Confirm to delete API key? API key will be permanently deleted and cannot be used to access any services.',
        exact,
      ),
    ).toBeTruthy();
    fireEvent.click(button(modal, 'Delete'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('API key has been deleted.'));
    expect(callsAbout(calls, remove, paused.id)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Staging', { selector: 'td span' })).toBeNull());
    expect(await row('Production')).toBeTruthy();
  });

  it('closes the confirmation and shows the refusal as the service words it', async () => {
    open(
      [paused],
      on(remove, () => failed(409, Messages.apiKeyDeleteActive, 'Conflict')),
    );
    fireEvent.click(button(await row('Staging'), 'Delete'));
    fireEvent.click(button(await dialog('Delete API Key'), 'Delete'));

    await waitFor(() => expect(lastError()).toBe(Messages.apiKeyDeleteActive));
    await waitFor(() => expect(screen.queryByText('Delete API Key', { selector: '.ant-modal-title' })).toBeNull());
    expect(toast.success).not.toHaveBeenCalled();
    expect(await row('Staging')).toBeTruthy();
  });
});
