import { afterEach, describe, expect, it } from 'vitest';
import { closeEarlyRequests, takeEarlyRequest } from './early-requests';

const holder = globalThis as { __ebsEarlyRequests?: Record<string, Promise<Response>> | null };

afterEach(() => {
  delete holder.__ebsEarlyRequests;
});

describe('the requests the page started early (public/boot.js)', () => {
  it('hands each answer once, to the same method and path, and nothing once the start-up closed them', async () => {
    const refresh = Promise.resolve(new Response('{"ok":1}'));
    const config = Promise.resolve(new Response('{}'));
    holder.__ebsEarlyRequests = { 'POST /auth/refresh': refresh, 'GET /api/v1.0/config': config };

    expect(takeEarlyRequest('GET', '/auth/refresh')).toBeUndefined();
    expect(takeEarlyRequest('POST', '/auth/refresh')).toBe(refresh);
    expect(takeEarlyRequest('POST', '/auth/refresh')).toBeUndefined();

    closeEarlyRequests();
    expect(takeEarlyRequest('GET', '/api/v1.0/config')).toBeUndefined();
  });

  it('finds nothing when the page started nothing', () => {
    expect(takeEarlyRequest('POST', '/auth/refresh')).toBeUndefined();
  });
});
