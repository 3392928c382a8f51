import { describe, expect, it } from 'vitest';
import { addressesInFile, appendAddresses, inChunks, parseAddresses, readFileText } from './parse-addresses';

const A = '0x52908400098527886e0f7030069857d2e4169ee7';
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d';
const C = '0xde709f2102306220921060314715629080e2fb77';
const HASH = `0x${'88df0164'.repeat(8)}`;

describe('parseAddresses', () => {
  it('takes addresses separated by new lines, commas, semicolons, spaces and tabs, lowercase', () => {
    expect(parseAddresses(`${A}\n${B}, ${C}`)).toEqual({ addresses: [A, B, C], duplicates: 0, invalid: [] });
    expect(parseAddresses(`  ${A};${B}\t${C}\r\n\n`).addresses).toEqual([A, B, C]);
    expect(parseAddresses('').addresses).toEqual([]);
    expect(parseAddresses(' \n , ').addresses).toEqual([]);
  });

  it('leaves out an address given again and counts it, in the order first given', () => {
    expect(parseAddresses([B, A, B, C, A].join('\n'))).toEqual({ addresses: [B, A, C], duplicates: 2, invalid: [] });
  });

  it('counts an address in another letter case as the same address', () => {
    const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';
    const upper = `0x${A.slice(2).toUpperCase()}`;
    expect(parseAddresses([checksummed, A, upper].join(' '))).toEqual({ addresses: [A], duplicates: 2, invalid: [] });
  });

  it('reports each entry that is not an address with its place among the entries, from 0', () => {
    const parsed = parseAddresses(
      [A, 'nope', `${B.slice(0, 41)}`, B, HASH, `${B}zz`, '0xZZ08400098527886e0f7030069857d2e4169ee7'].join(','),
    );
    expect(parsed.addresses).toEqual([A, B]);
    expect(parsed.invalid).toEqual([
      { index: 1, value: 'nope' },
      { index: 2, value: B.slice(0, 41) },
      { index: 4, value: HASH },
      { index: 5, value: `${B}zz` },
      { index: 6, value: '0xZZ08400098527886e0f7030069857d2e4169ee7' },
    ]);
  });

  it('takes addresses pasted as a JSON array or with quotes', () => {
    expect(parseAddresses(`["${A}", "${B}"]`).addresses).toEqual([A, B]);
    expect(parseAddresses(`'${C}'`).addresses).toEqual([C]);
  });
});

describe('addressesInFile', () => {
  it('reads a CSV export with a header and other columns, quoted or not', () => {
    const csv = [
      'label,address,balance,last transaction',
      `"Alice","${A}",1.5,${HASH}`,
      `Bob,${B.toUpperCase().replace('0X', '0x')},0,`,
      `Carol;${C};12`,
      `Alice again,${A},3,`,
    ].join('\r\n');
    expect(addressesInFile(csv)).toEqual({ addresses: [A, B, C], skipped: [HASH] });
  });

  it('skips 0x values that are not addresses, and an address inside a longer word or value', () => {
    const text = `id,value\n1,0x1234\n2,abc${A}\n3,${A}ff\n4,${B}`;
    expect(addressesInFile(text)).toEqual({ addresses: [B], skipped: ['0x1234', `${A}ff`] });
  });

  it('finds nothing in a file without addresses', () => {
    expect(addressesInFile('name,amount\nAlice,3\n')).toEqual({ addresses: [], skipped: [] });
  });
});

describe('the list helpers', () => {
  it('appends addresses after the text, one a line', () => {
    expect(appendAddresses('', [A, B])).toBe(`${A}\n${B}`);
    expect(appendAddresses(`${A}\n\n`, [B])).toBe(`${A}\n${B}`);
    expect(appendAddresses(A, [])).toBe(A);
  });

  it('cuts a list into pieces of at most the given size', () => {
    const list = Array.from({ length: 2500 }, (_, i) => i);
    expect(inChunks(list, 1000).map((chunk) => chunk.length)).toEqual([1000, 1000, 500]);
    expect(inChunks(list, 1000)[1]?.[0]).toBe(1000);
    expect(inChunks([], 1000)).toEqual([]);
  });

  it('reads a file’s text', async () => {
    const file = new File([`address\n${A}\n`], 'list.csv', { type: 'text/csv' });
    expect(await readFileText(file)).toBe(`address\n${A}\n`);
  });
});
