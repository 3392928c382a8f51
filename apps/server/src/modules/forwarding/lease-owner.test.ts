import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isGoneOwner, newLeaseOwner } from './lease-owner.ts';

describe('lease owners a process may take back', () => {
  const self = newLeaseOwner();
  const [, pid, run] = self.split(':');

  it('keeps the leases of this run, of live processes and of other hosts', () => {
    expect(isGoneOwner(self, self)).toBe(false);
    expect(isGoneOwner(newLeaseOwner(), self)).toBe(false);
    expect(isGoneOwner(`${hostname()}:${process.ppid}:abcd1234:abcd1234`, self)).toBe(false);
    expect(isGoneOwner(`another-host:${pid}:other000:abcd1234`, self)).toBe(false);
    // Written before runs were recorded: this process id cannot tell an earlier run from this one.
    expect(isGoneOwner(`${hostname()}:${pid}:abcd1234`, self)).toBe(false);
    expect(isGoneOwner('garbage', self)).toBe(false);
  });

  it('takes back an earlier run of this process id (a restarted container) and a killed process', async () => {
    expect(isGoneOwner(`${hostname()}:${pid}:${run === 'ffffffff' ? 'eeeeeeee' : 'ffffffff'}:abcd1234`, self)).toBe(
      true,
    );
    const child = spawn(process.execPath, ['-e', '']);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const killed = `${hostname()}:${child.pid}:abcd1234:abcd1234`;
    await exited;
    expect(isGoneOwner(killed, self)).toBe(true);
  });
});
