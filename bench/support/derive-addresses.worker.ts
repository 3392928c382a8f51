// One worker's share of the wallet addresses: the app's own derivation (BIP-32 from the master
// seed), which costs milliseconds a key, so the bench spreads it over the cores.
import { parentPort, workerData } from 'node:worker_threads';
import { WalletKeys } from '../../apps/server/src/modules/forwarding/wallet-keys.ts';

const { seed, indexes } = workerData as { seed: Uint8Array; indexes: number[] };
const keys = new WalletKeys(Buffer.from(seed));
parentPort?.postMessage(indexes.map((index) => keys.address(index)));
