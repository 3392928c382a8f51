import { createPublicClient, http } from 'viem';

/**
 * A dapp's page as a customer would write it: viem in the browser, calling the gateway with a key
 * in the URL. The journeys open it from an allowed origin and from another one.
 */
async function callGateway(url: string, call: 'blockNumber' | 'balance'): Promise<string> {
  // No retries: a refusal is shown as it came.
  const client = createPublicClient({ transport: http(url, { retryCount: 0 }) });
  let shown: string;
  try {
    const value =
      call === 'blockNumber'
        ? await client.getBlockNumber()
        : await client.getBalance({ address: '0x0000000000000000000000000000000000000000' });
    shown = `ok ${value}`;
  } catch (error) {
    shown = `error ${(error as { details?: string }).details ?? (error as Error).message}`;
  }
  const answer = document.getElementById('answer');
  if (answer) answer.textContent = shown;
  return shown;
}

Object.assign(window, { callGateway });
