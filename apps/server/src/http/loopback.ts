import { isIPv4 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Whether the request came over a socket from this machine. The socket's own address, never a
 * forwarded one: a header is the client's to write, whatever TRUST_PROXY says.
 */
export function fromLoopbackSocket(request: FastifyRequest): boolean {
  const address = (request.socket.remoteAddress ?? '').replace(/^::ffff:/i, '');
  return address === '::1' || (isIPv4(address) && address.startsWith('127.'));
}
