import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, uniqueEmail } from '../testing/client.ts';
import { testDatabases } from '../testing/databases.ts';
import { startServer, type TestServer } from '../testing/server.ts';

describe('mail over SMTP', () => {
  let smtp: SMTPServer;
  let server: TestServer;
  let close: () => Promise<void>;
  const received: Array<{ to: string[]; data: string }> = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    const opened = await testDatabases[0]!.open();
    close = opened.close;
    server = await startServer(opened.db, {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Console <no-reply@example.com>',
    });
  });
  afterAll(async () => {
    await server?.close();
    await close?.();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the verification code to the SMTP server and keeps nothing in the dev outbox', async () => {
    const email = uniqueEmail();
    const answer = await new Client(server.url).post('/auth/sign-up', {
      email,
      password: 'smtp works 1',
      givenName: 'S',
      familyName: 'M',
    });
    expect(answer.status).toBe(200);
    const mail = received.find((m) => m.to.includes(email));
    expect(mail?.data).toMatch(/Your verification code is \d{6}\./);
    expect(mail?.data).toContain('From: Console <no-reply@example.com>');
    const outbox = await server.db.selectFrom('mail_outbox').select('id').execute();
    expect(outbox).toEqual([]);
  });
});
