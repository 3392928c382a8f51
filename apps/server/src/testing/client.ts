import { randomBytes } from 'node:crypto';

export interface Answer<T = unknown> {
  status: number;
  body: { statusCode: number; message: string; data: T; error?: string };
  headers: Headers;
}

/** A small HTTP client that keeps the refresh cookie like a browser does. */
export class Client {
  cookie = '';
  idToken = '';

  /**
   * `mailboxUrl` is a server's own address for the dev outbox, which answers only connections
   * from this machine that no proxy forwarded: behind a balancer, one of its backends.
   */
  constructor(
    readonly baseUrl: string,
    readonly mailboxUrl = baseUrl,
  ) {}

  async call<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const token = options.token === undefined ? this.idToken : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.cookie && path.startsWith('/auth/')) headers.cookie = this.cookie;
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const pair = setCookie.split(';')[0] ?? '';
      this.cookie = pair.endsWith('=') ? '' : pair;
    }
    const text = await response.text();
    // A file (a CSV export) is kept as its text.
    const json = response.headers.get('content-type')?.includes('json') ?? true;
    const body = !text ? undefined : json ? JSON.parse(text) : text;
    return { status: response.status, body, headers: response.headers };
  }

  post<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.call<T>('POST', path, { body: body ?? {}, headers });
  }

  get<T = unknown>(path: string, headers?: Record<string, string>) {
    return this.call<T>('GET', path, { headers });
  }

  /** The newest code mailed to an address, read from the dev outbox as a person would. */
  async mailedCode(email: string): Promise<string> {
    const response = await fetch(`${this.mailboxUrl}/dev/mailbox.json?to=${encodeURIComponent(email)}`);
    const mails = (await response.json()) as Array<{ text: string }>;
    const code = mails[0]?.text.match(/\b\d{6}\b/)?.[0];
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  }

  /** Signs up, confirms with the mailed code, and keeps the session. */
  async signUp(
    email = uniqueEmail(),
    password = 'correct horse 1',
  ): Promise<{ email: string; password: string; userId: string }> {
    const signUp = await this.post<{ userSub: string }>('/auth/sign-up', {
      email,
      password,
      givenName: 'Test',
      familyName: 'User',
    });
    if (signUp.status !== 200) throw new Error(`sign-up failed: ${signUp.body.message}`);
    const confirmed = await this.post<{ idToken: string }>('/auth/confirm-sign-up', {
      email,
      code: await this.mailedCode(email),
    });
    this.idToken = confirmed.body.data.idToken;
    return { email, password, userId: signUp.body.data.userSub };
  }
}

export const uniqueEmail = () => `user-${randomBytes(5).toString('hex')}@example.com`;
