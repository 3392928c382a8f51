import { Messages } from '@ebs/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../lib/toast';
import { stubClipboard } from '../testing/clipboard';
import { setUpPageTests } from '../testing/page-test-kit';
import { CopyButton } from './copy-button';

setUpPageTests();

describe('CopyButton', () => {
  it('copies its text and shows "Text has been copied to clipboard."', async () => {
    const writeText = stubClipboard();
    render(<CopyButton text="0x52908400098527886E0F7030069857D2E4169EE7" />);

    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Text has been copied to clipboard.'));
    expect(writeText).toHaveBeenCalledWith('0x52908400098527886E0F7030069857D2E4169EE7');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('shows an error toast, not the copied one, when the browser refuses the clipboard', async () => {
    stubClipboard(
      vi.fn(async () => {
        throw new DOMException('Write permission denied.', 'NotAllowedError');
      }),
    );
    render(<CopyButton text="secret" />);

    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(Messages.copyFailed));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('shows an error toast when the page has no clipboard at all (not a secure context)', async () => {
    render(<CopyButton text="secret" />);

    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(Messages.copyFailed));
    expect(toast.success).not.toHaveBeenCalled();
  });
});
