import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  API_KEY_ID_PARAM,
  findRpcNetwork,
  RPC_BASE_PATH,
  RPC_TOKEN_PARAM,
  RPC_WS_SUFFIX,
  RpcErrorCodes,
  RpcMessages,
  type RpcNetwork,
  rpcCloseCode,
} from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import type { Config } from '../../config.ts';
import { type KeyRequest, type KeyState, keyRefusal } from '../keys/index.ts';
import type { RpcGateway } from './rpc.service.ts';
import { credential, decodedPath, keyRequestOf } from './rpc-http.ts';
import type { Caller } from './rpc-request.ts';
import { RpcRefusal } from './rpc-request.ts';
import { type Reply, RpcConnection, reasonOf } from './rpc-ws-connection.ts';
import { WsSubscriptions } from './rpc-ws-subscriptions.ts';

const PREFIX = `${RPC_BASE_PATH}/`;
/** Every connection's credentials (a JWT's expiry, a rolled secret's overlap) are checked again this often. */
const RECHECK_EVERY_SWEEPS = 40;
/**
 * Messages of one connection not yet answered, or answered and waiting behind an earlier one (answers
 * go out in order); past them its socket is read no further until some have gone out.
 */
const MAX_UNANSWERED = 100;
/** How often open connections are checked against their key's state (a deactivation closes them within a second). */
const SWEEP_MS = 250;
/** The WebSocket upgrades the gateway answers: any under the RPC base path (a wrong one is refused with a close). */
export const isGatewayUpgrade = (request: IncomingMessage): boolean => (request.url ?? '').startsWith(PREFIX);

/** A connection let in: who, as they showed themselves, and where. */
interface Admitted {
  caller: Caller;
  keyRequest: KeyRequest;
  network: RpcNetwork;
}

/**
 * `/api/v1.0/rpc/{network}/ws` (ARCHITECTURE §5, docs/api.md "WebSocket"): JSON-RPC over WebSocket
 * with the HTTP endpoint's key checks, rules, limits and metering, and eth_subscribe /
 * eth_unsubscribe served by the network's SubscriptionHub. A refused upgrade, or a connection whose
 * key stops being usable, is closed with 4000 + the HTTP status and the message as the reason.
 */
export class RpcWebSockets {
  private readonly server: WebSocketServer;
  private readonly connections = new Set<RpcConnection>();
  private readonly byKey = new Map<string, Set<RpcConnection>>();
  /** Open connections per account, whichever of its keys they use. */
  private readonly byAccount = new Map<string, number>();
  private readonly subscriptions: WsSubscriptions;
  private readonly trust: (address: string, hop: number) => boolean;
  private readonly pinger: NodeJS.Timeout;
  private readonly sweeper: NodeJS.Timeout;
  private sweeps = 0;

  constructor(
    private readonly rpc: RpcGateway,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    // A message larger than an HTTP body may be is refused by closing with 1009.
    this.server = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: config.RPC_MAX_BODY_BYTES,
    });
    this.trust = (_address, hop) => hop < config.TRUST_PROXY;
    this.subscriptions = new WsSubscriptions(rpc, {
      perKey: config.RPC_WS_MAX_SUBSCRIPTIONS_PER_KEY,
      perAccount: config.RPC_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT,
    });
    this.pinger = setInterval(() => this.ping(), config.RPC_WS_PING_SECONDS * 1000);
    this.pinger.unref();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Open connections now, in this process. */
  get size(): number {
    return this.connections.size;
  }

  /** An upgrade request for which isGatewayUpgrade holds. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    this.admit(request).then(
      (admitted) =>
        this.server.handleUpgrade(request, socket, head, (ws) => {
          // Counted again here, in the same step as the connection is added: upgrades that waited
          // together for their key's first read cannot all pass the limit.
          const refused = admitted instanceof RpcRefusal ? admitted : this.tooManyConnections(admitted.caller);
          if (refused) {
            ws.close(rpcCloseCode(refused.httpStatus), reasonOf(refused.message));
            return;
          }
          this.open(ws, admitted as Admitted);
        }),
      (error: unknown) => {
        this.log.error({ err: error }, 'RPC WebSocket upgrade failed');
        socket.destroy();
      },
    );
  }

  /** Who may open this connection, or why not (answered as a close once the upgrade is done). */
  private async admit(request: IncomingMessage): Promise<RpcRefusal | Admitted> {
    const url = request.url ?? '';
    const queryAt = url.indexOf('?');
    const path = decodedPath(url, PREFIX);
    const network = path.endsWith(RPC_WS_SUFFIX) ? findRpcNetwork(path.slice(0, -RPC_WS_SUFFIX.length)) : undefined;
    if (!network) return new RpcRefusal(404, RpcErrorCodes.notFound, RpcMessages.unknownNetwork(path));
    const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
    const headers = request.headers;
    const token = query.getAll(RPC_TOKEN_PARAM);
    const shown = keyRequestOf(request, query, this.trust);
    const keyRequest: KeyRequest = {
      ...shown,
      // Browsers cannot set headers on a WebSocket: their JWT comes in the query.
      authorization: shown.authorization ?? (token.length === 1 && token[0] ? `Bearer ${token[0]}` : undefined),
    };
    try {
      const caller = await this.rpc.authorize(credential(query, headers, API_KEY_ID_PARAM), keyRequest);
      return this.tooManyConnections(caller) ?? { caller, keyRequest, network };
    } catch (error) {
      if (error instanceof RpcRefusal) return error;
      throw error;
    }
  }

  /** Past the key's or the account's connections on this process: refused (closed with 4429). */
  private tooManyConnections(caller: Caller): RpcRefusal | null {
    const perKey = this.config.RPC_WS_MAX_CONNECTIONS_PER_KEY;
    if ((this.byKey.get(caller.apiKeyId)?.size ?? 0) >= perKey) {
      return new RpcRefusal(429, RpcErrorCodes.rateLimited, RpcMessages.tooManyConnections(perKey));
    }
    const perAccount = this.config.RPC_WS_MAX_CONNECTIONS_PER_ACCOUNT;
    if ((this.byAccount.get(caller.accountId) ?? 0) >= perAccount) {
      return new RpcRefusal(429, RpcErrorCodes.rateLimited, RpcMessages.tooManyAccountConnections(perAccount));
    }
    return null;
  }

  private open(socket: WebSocket, admitted: Admitted): void {
    const { caller, keyRequest, network } = admitted;
    const { pipeline } = this.rpc;
    const connection = new RpcConnection(socket, caller, keyRequest, network, {
      paused: (c) => pipeline.paused(c.caller),
      sent: (c, bytes) => pipeline.notified(c.caller, network, bytes),
    });
    this.connections.add(connection);
    let mine = this.byKey.get(caller.apiKeyId);
    if (!mine) {
      mine = new Set();
      this.byKey.set(caller.apiKeyId, mine);
    }
    mine.add(connection);
    this.byAccount.set(caller.accountId, (this.byAccount.get(caller.accountId) ?? 0) + 1);
    socket.on('pong', () => {
      connection.alive = true;
    });
    const take = (text: string) => {
      const made: string[] = [];
      const slot = connection.reserve();
      const answered = (answer: Reply | null) => {
        connection.fill(slot, answer, made);
        // As answers go out, what waited is taken, then the socket is read again.
        while (
          socket.readyState === WebSocket.OPEN &&
          connection.unanswered < MAX_UNANSWERED &&
          connection.backlog.length > 0
        ) {
          take(connection.backlog.shift() as string);
        }
        if (connection.unanswered < MAX_UNANSWERED && socket.isPaused) socket.resume();
      };
      // answer() turns every failure into a JSON-RPC error; should one escape, the slot is freed all the same.
      this.answer(connection, text, made).then(answered, () => answered(null));
    };
    socket.on('message', (data, isBinary) => {
      // Nothing is answered once the connection is closing (a refused key's client may go on sending).
      if (socket.readyState !== WebSocket.OPEN) return;
      connection.alive = true;
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data);
      if (connection.unanswered < MAX_UNANSWERED) {
        take(text);
        return;
      }
      // The socket may hand over what it has already read after a pause: kept, in order, and bounded.
      socket.pause();
      connection.backlog.push(text);
      if (connection.backlog.length > MAX_UNANSWERED * 10) connection.close(1008, RpcMessages.readTooSlowly);
    });
    socket.on('error', (error) => this.log.debug({ err: error }, 'RPC WebSocket error'));
    socket.on('close', () => this.closed(connection));
  }

  private closed(connection: RpcConnection): void {
    this.connections.delete(connection);
    // Messages read but not yet taken are not worked on for a connection that is gone.
    connection.backlog.length = 0;
    connection.dropOutbox();
    const keyId = connection.caller.apiKeyId;
    const mine = this.byKey.get(keyId);
    mine?.delete(connection);
    if (mine?.size === 0) this.byKey.delete(keyId);
    const accountId = connection.caller.accountId;
    const left = (this.byAccount.get(accountId) ?? 1) - 1;
    if (left > 0) this.byAccount.set(accountId, left);
    else this.byAccount.delete(accountId);
    for (const subscription of [...connection.subscriptions]) this.subscriptions.end(connection, subscription);
  }

  /**
   * The answer to one message: the pipeline's, as over HTTP, with eth_subscribe and eth_unsubscribe
   * answered by this connection's subscriptions, and the answer held whole (a message is). Every
   * failure is a JSON-RPC error; the connection stays open.
   */
  private async answer(connection: RpcConnection, text: string, made: string[]): Promise<Reply | null> {
    const { caller, network } = connection;
    try {
      const answer = await this.rpc.pipeline.run({
        caller,
        network,
        shown: connection.request,
        body: text,
        mayStream: false,
        local: (call) => this.subscriptions.answer(connection, call, made),
      });
      if ('stream' in answer) throw new Error('a WebSocket answer must be held whole');
      return { text: answer.body, release: answer.release };
    } catch (error) {
      // A batch that fails after its eth_subscribe was made: the client never gets the id, so no subscription.
      for (const subscription of made.splice(0)) this.subscriptions.end(connection, subscription);
      if (error instanceof RpcRefusal) return { text: JSON.stringify({ ...error.body(), id: error.id }) };
      if (connection.socket.readyState !== WebSocket.OPEN) return null;
      this.log.error({ err: error }, 'RPC WebSocket call failed');
      const failed = new RpcRefusal(500, RpcErrorCodes.upstream, 'Internal error, please try again later.');
      return { text: JSON.stringify(failed.body()) };
    }
  }

  /** Closes the connections of keys that are no longer usable: deleted, deactivated, expired, suspended, changed. */
  private sweep(): void {
    const now = Date.now();
    this.sweeps += 1;
    const whole = this.sweeps % RECHECK_EVERY_SWEEPS === 0;
    for (const [keyId, connections] of this.byKey) {
      const state = this.rpc.keys.cached(keyId);
      if (state === undefined) continue; // not known without a read: the next sweep, once re-read
      for (const connection of connections) {
        const refusal = this.refusalNow(connection, state, now, whole);
        if (refusal) connection.close(rpcCloseCode(refusal.httpStatus), refusal.message);
      }
    }
  }

  /**
   * Why a connection may no longer use its key: checked cheaply on every sweep (the key's state),
   * whole when the key changed and every RECHECK_EVERY_SWEEPS sweeps (`whole`: a JWT that expired,
   * a rolled secret's overlap that ended).
   */
  private refusalNow(connection: RpcConnection, state: KeyState | null, now: number, whole: boolean) {
    if (state === null) return { httpStatus: 401, message: RpcMessages.deletedKey };
    const unchanged =
      !whole &&
      state === connection.caller.key &&
      state.active &&
      !state.deleted &&
      state.accountEnabled &&
      (state.expiresAt === null || now < state.expiresAt);
    if (unchanged) return null;
    // A changed key is checked again as a new connection would be; its new limits apply from now.
    const refusal = keyRefusal(state, connection.request, now);
    if (!refusal) connection.caller = { ...connection.caller, key: state };
    return refusal;
  }

  /** Pings every connection; one that has not answered the last ping (nor sent anything since) is closed. */
  private ping(): void {
    for (const connection of this.connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }

  /** At shutdown: every client is told to reconnect (to another process, or this one restarted). */
  close(): void {
    clearInterval(this.pinger);
    clearInterval(this.sweeper);
    for (const connection of this.connections) connection.close(1012, RpcMessages.serverClosing);
    this.server.close();
  }
}
