import {
  badRequest,
  type CreateNotifyWebhookBody,
  FORWARDING_NETWORKS,
  NotifyMessages as M,
  type Network,
  NOTIFY_CATEGORIES,
  NOTIFY_LIMITS,
  NOTIFY_NETWORKS,
  type NotifyAddressesBody,
  type NotifyAddressesResult,
  type NotifyAddressPage,
  type NotifyDeliveryList,
  type NotifyReplay,
  type NotifyTestResult,
  type NotifyWebhook,
  type NotifyWebhookStatus,
  notFound,
} from '@ebs/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { signingSecretsInForce } from '../accounts/index.ts';
import {
  checkWebhookUrl,
  type ForwardingChains,
  newWebhookId,
  postWebhook,
  webhookHeaders,
} from '../forwarding/index.ts';
import { payloadOf, seenEventId } from './activity-view.ts';
import { addressPage, changeAddresses } from './addresses.store.ts';
import { deliveryPage, recordTestDelivery } from './deliveries.store.ts';
import { restartIdleScanner, startReplay } from './scanner.store.ts';
import {
  countWebhooks,
  deleteWebhook,
  insertWebhook,
  lastAttempts,
  setWebhookStatus,
  type WebhookRow,
  webhookOf,
  webhooksOf,
  webhookView,
} from './webhooks.store.ts';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The addresses of a list, checked one by one (the error names the first at fault), lower-cased, once each. */
export function checkedAddresses(field: string, values: readonly string[] | undefined): string[] {
  const found = new Set<string>();
  for (const [index, value] of (values ?? []).entries()) {
    const text = value.trim();
    if (!ADDRESS.test(text)) throw badRequest(M.addressInvalid(field, index, value));
    found.add(text.toLowerCase());
  }
  return [...found];
}

/** The rules of address-activity webhooks, for the routes; every call is scoped to the caller's account. */
export class NotifyService {
  constructor(
    private readonly db: Db,
    private readonly chains: ForwardingChains,
    private readonly dataKey: Buffer,
    private readonly config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_TARGETS' | 'WEBHOOK_TIMEOUT_MS'>,
  ) {}

  async create(accountId: string, body: CreateNotifyWebhookBody): Promise<NotifyWebhook> {
    const name = body.name.trim();
    if (!name) throw badRequest(M.nameRequired);
    const network = body.network as Network;
    if (!(NOTIFY_NETWORKS as readonly string[]).includes(body.network))
      throw badRequest(M.networkInvalid(body.network));
    if (!this.chains.available(network)) throw badRequest(M.networkUnavailable(body.network));
    const categories = [...new Set(body.categories ?? NOTIFY_CATEGORIES)];
    if (categories.length === 0) throw badRequest(M.categoriesEmpty);
    if (categories.some((c) => !(NOTIFY_CATEGORIES as readonly string[]).includes(c)))
      throw badRequest(M.categoriesInvalid);
    const confirmations = body.confirmations ?? 0;
    if (!Number.isInteger(confirmations) || confirmations < 0 || confirmations > NOTIFY_LIMITS.maxConfirmations) {
      throw badRequest(M.confirmationsInvalid);
    }
    const addresses = checkedAddresses('addresses', body.addresses);
    if (addresses.length === 0) throw badRequest(M.addressesRequired);
    const url = body.url.trim();
    await checkWebhookUrl(url, { allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS });
    // Watched from the block after the newest one now.
    const from = (await this.head(network)) + 1;
    const row = await this.db.transaction().execute(async (trx) => {
      if ((await countWebhooks(trx, accountId)) >= NOTIFY_LIMITS.webhooksPerAccount)
        throw badRequest(M.tooManyWebhooks);
      await restartIdleScanner(trx, network, from);
      const webhook = await insertWebhook(trx, { accountId, name, network, url, categories, confirmations });
      const change = await changeAddresses(trx, webhook, addresses, []);
      return { ...webhook, address_count: change.addressCount };
    });
    return webhookView(row);
  }

  async list(accountId: string): Promise<NotifyWebhook[]> {
    const rows = await webhooksOf(this.db, accountId);
    const last = await lastAttempts(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => webhookView(row, last.get(row.id) ?? null));
  }

  async get(accountId: string, id: string): Promise<NotifyWebhook> {
    const row = await this.found(accountId, id);
    return webhookView(row, (await lastAttempts(this.db, [id])).get(id) ?? null);
  }

  async remove(accountId: string, id: string): Promise<void> {
    await this.found(accountId, id);
    await deleteWebhook(this.db, id);
  }

  async setStatus(accountId: string, id: string, status: NotifyWebhookStatus): Promise<NotifyWebhook> {
    const webhook = await this.found(accountId, id);
    if (status === 'ENABLED') {
      await restartIdleScanner(this.db, webhook.network, (await this.head(webhook.network as Network)) + 1);
    }
    const row = await setWebhookStatus(this.db, id, status, status === 'DISABLED' ? M.disabledByUser : null);
    if (!row) throw notFound(M.notFound);
    return this.get(accountId, row.id);
  }

  async changeAddresses(accountId: string, id: string, body: NotifyAddressesBody): Promise<NotifyAddressesResult> {
    const add = checkedAddresses('add', body.add);
    const remove = checkedAddresses('remove', body.remove);
    if (add.length === 0 && remove.length === 0) throw badRequest(M.changeEmpty);
    return this.db.transaction().execute(async (trx) => {
      const webhook = await webhookOf(trx, accountId, id, true);
      if (!webhook) throw notFound(M.notFound);
      // An address both added and removed in one change ends removed.
      return changeAddresses(
        trx,
        webhook,
        add.filter((a) => !remove.includes(a)),
        remove,
      );
    });
  }

  async addresses(
    accountId: string,
    id: string,
    query: { limit: number; cursor?: string; search?: string },
  ): Promise<NotifyAddressPage> {
    await this.found(accountId, id);
    return addressPage(this.db, id, query);
  }

  async replay(accountId: string, id: string, range: { fromBlock: number; toBlock: number }): Promise<NotifyReplay> {
    const webhook = await this.found(accountId, id);
    if (webhook.status !== 'ENABLED') throw badRequest(M.replayDisabled);
    const { fromBlock, toBlock } = range;
    if (toBlock < fromBlock || toBlock - fromBlock + 1 > NOTIFY_LIMITS.replayBlocks) throw badRequest(M.replayRange);
    const head = await this.head(webhook.network as Network);
    if (toBlock > head) throw badRequest(M.replayAhead(head));
    const replayId = await startReplay(this.db, { webhookId: id, network: webhook.network, fromBlock, toBlock });
    if (!replayId) throw badRequest(M.replayRunning);
    return { id: replayId, fromBlock, toBlock, nextBlock: fromBlock, status: 'RUNNING' };
  }

  async deliveries(
    accountId: string,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<NotifyDeliveryList> {
    await this.found(accountId, id);
    return deliveryPage(this.db, id, page);
  }

  /** Sends a signed sample (no activity) now, records it in the log, and answers what the receiver said. */
  async test(accountId: string, id: string): Promise<NotifyTestResult> {
    const webhook = await this.found(accountId, id);
    const at = new Date();
    const messageId = newWebhookId();
    const payload = {
      ...payloadOf({
        webhookId: id,
        network: webhook.network,
        block: { number: 0, hash: `0x${'0'.repeat(64)}`, timestamp: Math.floor(at.getTime() / 1000) },
        kind: 'SEEN',
        seenId: seenEventId(id, messageId),
        replay: false,
        activity: [],
      }),
      test: true as const,
    };
    const body = JSON.stringify(payload);
    const secrets = await signingSecretsInForce(this.db, this.dataKey, accountId, at);
    const answer = await postWebhook({
      url: webhook.url,
      headers: webhookHeaders({ id: messageId, timestamp: Math.floor(at.getTime() / 1000), body, secrets }),
      body,
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    });
    const ok = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
    await recordTestDelivery(this.db, { accountId, payload, kind: 'TEST', confirmAtBlock: null }, messageId, {
      at,
      statusCode: answer.statusCode,
      durationMs: answer.durationMs,
      error: ok ? null : answer.body.slice(0, 500) || `HTTP ${answer.statusCode}`,
    });
    return { statusCode: answer.statusCode, durationMs: answer.durationMs, body: answer.body };
  }

  /** The network's newest block, from its nodes; a network whose nodes do not answer is refused with a clear message. */
  private async head(network: Network): Promise<number> {
    try {
      return Number(await this.chains.get(network).request('eth_blockNumber', []));
    } catch {
      throw badRequest(M.networkUnavailable(network));
    }
  }

  private async found(accountId: string, id: string): Promise<WebhookRow> {
    const row = await webhookOf(this.db, accountId, id);
    if (!row) throw notFound(M.notFound);
    return row;
  }
}

/** The native token a network's NATIVE activity is named by. */
export function nativeTokenOf(network: Network): string {
  const info = FORWARDING_NETWORKS[network];
  return info.kind === 'evm' ? info.nativeToken : '';
}
