import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** This run of this process: a restarted container has the same host name and process id, not this. */
const RUN = randomUUID().slice(0, 8);

/** A lease owner: host, process id, this run of the process, and the engine within it. */
export const newLeaseOwner = () => `${hostname()}:${process.pid}:${RUN}:${randomUUID().slice(0, 8)}`;

/**
 * Whether a lease owner is a process of this host that no longer runs: a killed process (its id is
 * gone), or an earlier run of this one (the same id, another run: a container restarted). Owners on
 * other hosts, or written before runs were recorded with this process's id, are never taken for gone:
 * their leases run out instead.
 */
export function isGoneOwner(owner: string, self: string): boolean {
  const [host, pid, run] = owner.split(':');
  const [ownHost, ownPid, ownRun] = self.split(':');
  if (!host || host !== ownHost || !pid || !/^\d+$/.test(pid)) return false;
  if (pid === ownPid) return owner.split(':').length === 4 && run !== ownRun;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
