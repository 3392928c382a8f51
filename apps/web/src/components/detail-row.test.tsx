import { Messages } from '@ebs/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../lib/toast';
import { stubClipboard } from '../testing/clipboard';
import { setUpPageTests } from '../testing/page-test-kit';
import { DetailRow } from './detail-row';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const HASH = '0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b';

setUpPageTests();

describe('DetailRow: title and value', () => {
  it('shows the title and the value', () => {
    render(<DetailRow title="Token" value="ERC20" />);
    expect(screen.getByText('Token')).toBeTruthy();
    expect(screen.getByText('ERC20')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty string', ''],
  ])('renders nothing when the value is %s', (_, value) => {
    const { container } = render(<DetailRow title="Webhook URL" value={value} />);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByText('Webhook URL')).toBeNull();
  });

  it('shows a zero, which is a value and not an absent one', () => {
    render(<DetailRow title="Webhook Attempt" value={0} />);
    expect(screen.getByText('Webhook Attempt')).toBeTruthy();
    expect(screen.getByText('0')).toBeTruthy();
  });
});

describe('DetailRow: long values', () => {
  it('shows a value of 160 characters as it is, with no View panel', () => {
    const value = 'a'.repeat(160);
    render(<DetailRow title="Webhook Log" value={value} />);
    expect(screen.getByText(value)).toBeTruthy();
    expect(screen.queryByText('View')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();
  });

  it('hides a value of 161 characters under a View panel with a copy button and a scrollable box', async () => {
    const value = `${'b'.repeat(160)}c`;
    render(<DetailRow title="Webhook Log" value={value} />);
    expect(screen.queryByText(value)).toBeNull();

    fireEvent.click(screen.getByText('View'));

    const box = await screen.findByText(value);
    expect(box.classList.contains('detail-row-scroll')).toBe(true);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('copies the full long value, not a shortened one', async () => {
    const writeText = stubClipboard();
    const log = JSON.stringify({ status: 200, body: 'x'.repeat(300) }, null, 2);
    render(<DetailRow title="Webhook Log" value={log} />);

    fireEvent.click(screen.getByText('View'));
    fireEvent.click(await screen.findByRole('button', { name: 'Copy' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.copied));
    expect(writeText).toHaveBeenCalledWith(log);
  });
});

describe('DetailRow: copyable values', () => {
  it('puts a copy button named after the title beside a short address, which copies it whole', async () => {
    const writeText = stubClipboard();
    render(
      <DetailRow title="Address" value={ADDRESS} link={{ network: 'ETHEREUM_MAINNET', kind: 'address' }} copyable />,
    );

    expect(screen.getByRole('link', { name: ADDRESS })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy Address' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.copied));
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
  });

  it('has no copy button beside a short value that is not marked copyable', () => {
    render(<DetailRow title="Token" value="ERC20" />);
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('DetailRow: block explorer links', () => {
  it.each([
    ['ETHEREUM_MAINNET', `https://etherscan.io/address/${ADDRESS}`],
    ['ETHEREUM_SEPOLIA', `https://sepolia.etherscan.io/address/${ADDRESS}`],
    ['BSC_MAINNET', `https://bscscan.com/address/${ADDRESS}`],
    ['BSC_TESTNET', `https://testnet.bscscan.com/address/${ADDRESS}`],
    ['POLYGON_MAINNET', `https://polygonscan.com/address/${ADDRESS}`],
    ['POLYGON_AMOY', `https://amoy.polygonscan.com/address/${ADDRESS}`],
    ['AURORA_MAINNET', `https://explorer.aurora.dev/address/${ADDRESS}`],
    ['AURORA_TESTNET', `https://explorer.testnet.aurora.dev/address/${ADDRESS}`],
  ])('links an address on %s to its explorer page in a new tab', (network, href) => {
    render(<DetailRow title="Address" value={ADDRESS} link={{ network, kind: 'address' }} />);
    const link = screen.getByRole('link', { name: ADDRESS });
    expect(link.getAttribute('href')).toBe(href);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('links a transaction hash to the transaction page', () => {
    render(<DetailRow title="Transaction Hash" value={HASH} link={{ network: 'POLYGON_AMOY', kind: 'transaction' }} />);
    expect(screen.getByRole('link', { name: HASH }).getAttribute('href')).toBe(
      `https://amoy.polygonscan.com/tx/${HASH}`,
    );
  });

  it.each(['BITCOIN_MAINNET', 'BITCOIN_TESTNET', 'METABIT_MAINNET'])(
    'shows plain text on %s, which has no explorer',
    (network) => {
      render(
        <DetailRow
          title="Address"
          value="bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
          link={{ network, kind: 'address' }}
        />,
      );
      expect(screen.getByText('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBeTruthy();
      expect(screen.queryByRole('link')).toBeNull();
    },
  );
});
