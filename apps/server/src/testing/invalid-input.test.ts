import {
  CreateTokenForwardingWalletBody,
  MfaSignInBody,
  SignUpBody,
  TransactionListQuery,
  UpdateAccountSettingsBody,
  WalletStatusBody,
} from '@ebs/contract';
import type { TSchema } from '@sinclair/typebox';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../http/errors.ts';
import { refuseUnusableValues, validatorOptions } from '../http/validation.ts';
import { exampleOf, invalidJson, invalidText, toJsonText } from './invalid-input.ts';
import { queryText } from './invalid-request.ts';

/**
 * The generators are only as good as their checker: here the server's own validator (options,
 * formats and value rules as the app sets them) answers the generated values directly.
 */
const BODIES: Record<string, TSchema> = {
  SignUpBody,
  MfaSignInBody,
  UpdateAccountSettingsBody,
  WalletStatusBody,
  CreateTokenForwardingWalletBody,
};

describe('invalid input generators', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({ ajv: validatorOptions });
    registerErrorHandler(app);
    refuseUnusableValues(app);
    for (const [name, schema] of Object.entries(BODIES)) {
      app.post(`/${name}`, { schema: { body: schema } }, async () => ({ ok: true }));
    }
    app.get('/query', { schema: { querystring: TransactionListQuery } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (name: string, payload: string) =>
    app.inject({ method: 'POST', url: `/${name}`, headers: { 'content-type': 'application/json' }, payload });

  it.each(Object.keys(BODIES))('builds a %s the validator takes', async (name) => {
    const answer = await post(name, toJsonText(exampleOf(BODIES[name] as TSchema)));
    expect(answer.statusCode).toBe(200);
  });

  it.each(Object.keys(BODIES))('builds only %s values the server refuses', async (name) => {
    await fc.assert(
      fc.asyncProperty(invalidJson(BODIES[name] as TSchema), async (bad) => {
        const answer = await post(name, toJsonText(bad.value));
        expect(answer.statusCode, bad.why).toBeGreaterThanOrEqual(400);
        expect(answer.statusCode, bad.why).toBeLessThan(500);
      }),
      { numRuns: 60, seed: 1 },
    );
  });

  it('builds only query values the server refuses', async () => {
    const properties = TransactionListQuery.properties as Record<string, TSchema>;
    const valid = exampleOf(TransactionListQuery) as Record<string, unknown>;
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...Object.keys(properties))
          .chain((name) => invalidText(properties[name] as TSchema, 'query').map((bad) => ({ name, bad }))),
        async ({ name, bad }) => {
          const answer = await app.inject({
            method: 'GET',
            url: `/query${queryText({ ...valid, [name]: bad.value })}`,
          });
          expect(answer.statusCode, `${name}: ${bad.why}`).toBe(400);
        },
      ),
      { numRuns: 60, seed: 1 },
    );
  });
});
