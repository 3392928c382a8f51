import { type Address, createTestClient, encodeAbiParameters, type Hex, http, pad, toHex } from 'viem';

/**
 * Runtime code that emits the log its call data describes: LOG4 with the topics in the first four
 * words and the rest as the log's data. Written in EVM opcodes (set at an address
 * with `anvil_setCode`), it makes a contract emit exactly the transfer logs of ERC-721 and
 * ERC-1155 contracts, which a test could otherwise only get from compiled token contracts.
 */
const EMIT_LOG4 = '0x606035604035602035600035608036038060806000376000a400';

const word = (address: string) => pad(address as Hex, { size: 32 });

/** Puts the emitter at an address of its own on a local node. */
export async function installLogEmitter(rpcUrl: string) {
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl) });
  const log4 = '0x00000000000000000000000000000000000e3174' as Address;
  await client.setCode({ address: log4, bytecode: EMIT_LOG4 });
  return {
    /** The emitter contract of 4-topic logs: what an ERC-721 and ERC-1155 contract's transfers come from. */
    tokenContract: log4,
    /** Call data for an ERC-721 `Transfer(from, to, tokenId)`. */
    erc721Transfer: (topic: Hex, from: string, to: string, tokenId: bigint): Hex =>
      `0x${[topic, word(from), word(to), toHex(tokenId, { size: 32 })].map((w) => w.slice(2)).join('')}`,
    /** Call data for an ERC-1155 `TransferSingle(operator, from, to, id, value)`. */
    erc1155Single: (topic: Hex, operator: string, from: string, to: string, id: bigint, value: bigint): Hex =>
      `0x${[
        topic,
        word(operator),
        word(from),
        word(to),
        encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [id, value]),
      ]
        .map((w) => w.slice(2))
        .join('')}`,
    /** Call data for an ERC-1155 `TransferBatch(operator, from, to, ids, values)`. */
    erc1155Batch: (topic: Hex, operator: string, from: string, to: string, ids: bigint[], values: bigint[]): Hex =>
      `0x${[
        topic,
        word(operator),
        word(from),
        word(to),
        encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, values]),
      ]
        .map((w) => w.slice(2))
        .join('')}`,
  };
}
