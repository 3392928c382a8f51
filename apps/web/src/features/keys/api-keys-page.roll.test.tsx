import { endpoints, Messages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { callsTo, failed, on, setUpPageTests } from '../../testing/page-test-kit';
import {
  button,
  dialog,
  drawer,
  KEY_ID,
  lastError,
  NEW_SECRET,
  openKeysPage,
  openSecurity,
} from './key-security-test-kit';
import { keySettings } from './keys-test-kit';

const { roll } = endpoints.keys;

setUpPageTests();

describe('ApiKeysPage: Roll key', () => {
  it('asks for the overlap, sends it, and shows the new secret once', async () => {
    const calls = openKeysPage(keySettings());
    const details = await openSecurity();
    fireEvent.click(button(details, 'Roll key'));
    const confirm = await dialog('Roll API Key');

    const select = within(confirm).getByLabelText('Old secret stays valid for');
    // An hour unless chosen otherwise: clients holding the old secret keep working while they move.
    expect(select.closest('.ant-select')?.textContent).toBe('1 hour');
    fireEvent.mouseDown(
      (select.closest('.ant-select') as HTMLElement).querySelector('.ant-select-selector') as HTMLElement,
    );
    const labels = await waitFor(() => {
      const options = [...document.querySelectorAll('.ant-select-item-option')] as HTMLElement[];
      if (options.length === 0) throw new Error('no overlap options');
      return options;
    });
    expect(labels.map((o) => o.textContent)).toEqual(['None', '1 hour', '24 hours', '7 days']);
    fireEvent.click(labels.find((o) => o.textContent === '24 hours') as HTMLElement);
    fireEvent.click(button(confirm, 'Roll key'));

    const shown = await dialog('Your New API Key');
    expect(callsTo(calls, roll).map((c) => [c.params.apiKeyId, c.body])).toEqual([[KEY_ID, { overlapSeconds: 86400 }]]);
    expect(toast.success).toHaveBeenCalledWith(Messages.apiKeyRolled);
    expect(within(within(shown).getByRole('region', { name: 'API Key ID' })).getByText(KEY_ID)).toBeTruthy();
    expect(within(within(shown).getByRole('region', { name: 'API Key' })).getByText(NEW_SECRET)).toBeTruthy();
    // Until when the old secret still works, as the server worked it out.
    expect(within(shown).getByText(/^The previous key keeps working until /)).toBeTruthy();
    expect(screen.queryByText('Roll API Key', { selector: '.ant-modal-title' })).toBeNull();

    // Only Done closes it, and Escape does not close the drawer beneath it either.
    fireEvent.keyDown(shown, { key: 'Escape', code: 'Escape', keyCode: 27 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByText(NEW_SECRET)).toBeTruthy();

    fireEvent.click(button(shown, 'Done'));
    await waitFor(() => expect(screen.queryByText(NEW_SECRET)).toBeNull());
    expect(await drawer('Production')).toBeTruthy();
  });

  it('keeps the dialog open and shows the refusal as the service words it', async () => {
    openKeysPage(
      keySettings(),
      on(roll, () => failed(409, 'This key was rolled a moment ago.', 'Conflict')),
    );
    const details = await openSecurity();
    fireEvent.click(button(details, 'Roll key'));
    fireEvent.click(button(await dialog('Roll API Key'), 'Roll key'));

    await waitFor(() => expect(lastError()).toBe('This key was rolled a moment ago.'));
    expect(screen.getByText('Roll API Key', { selector: '.ant-modal-title' })).toBeTruthy();
    expect(screen.queryByText('Your New API Key')).toBeNull();
  });
});
