import { RPC_NETWORKS } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { callSnippets } from './call-snippets';

const sepolia = RPC_NETWORKS[1];
const url = 'https://api.example.com/api/v1.0/rpc/ethereum/sepolia';

describe('callSnippets', () => {
  it('writes curl, viem, ethers and web3.py with the URL and the key in headers', () => {
    const snippets = callSnippets({ url, network: sepolia, keyId: ' kid-1 ', key: 'secret-1' });
    expect(snippets.map((s) => s.label)).toEqual(['curl', 'viem', 'ethers', 'web3.py']);
    const [curl, viem, ethers, web3py] = snippets.map((s) => s.code);
    expect(curl).toBe(
      [
        `curl -s '${url}' \\`,
        `  -H 'x-api-key-id: kid-1' -H 'x-api-key: secret-1' \\`,
        `  -H 'content-type: application/json' \\`,
        `  -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'`,
      ].join('\n'),
    );
    expect(viem).toContain(`http("${url}", {`);
    expect(viem).toContain(`headers: { "x-api-key-id": "kid-1", "x-api-key": "secret-1" }`);
    expect(ethers).toContain(`new FetchRequest("${url}")`);
    expect(ethers).toContain('new JsonRpcProvider(request, 11155111, { staticNetwork: true })');
    expect(web3py).toContain(`request_kwargs={"headers": {"x-api-key-id": "kid-1", "x-api-key": "secret-1"}}`);
  });

  it('shows the placeholders for an empty key, and keeps a typed quote from breaking out of any snippet', () => {
    const empty = callSnippets({ url, network: sepolia, keyId: '', key: '' });
    expect(empty[0]?.code).toContain(`-H 'x-api-key-id: [API_KEY_ID]' -H 'x-api-key: [API_KEY]'`);

    const [curl, viem, , web3py] = callSnippets({ url, network: sepolia, keyId: `a'b"c`, key: 'k' }).map((s) => s.code);
    expect(curl).toContain(`-H 'x-api-key-id: a'\\''b"c'`);
    expect(viem).toContain(`"x-api-key-id": "a'b\\"c"`);
    expect(web3py).toContain(`"x-api-key-id": "a'b\\"c"`);
  });
});
