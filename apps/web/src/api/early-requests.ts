/**
 * The answers of the requests public/boot.js started before the console's code arrived (the
 * session's refresh and the public configuration). Each is taken once, by the first request for the
 * same method and path that sends nothing the early one did not, during the start-up only
 * (closeEarlyRequests): a later one asks the server again.
 */
type EarlyRequests = Record<string, Promise<Response> | undefined>;

const early = (): EarlyRequests | null | undefined =>
  (globalThis as { __ebsEarlyRequests?: EarlyRequests | null }).__ebsEarlyRequests;

export function takeEarlyRequest(method: string, path: string): Promise<Response> | undefined {
  const requests = early();
  const key = `${method} ${path}`;
  const answer = requests?.[key];
  if (requests && answer) delete requests[key];
  return answer;
}

/**
 * Ends the early answers once the start-up has asked for what it needs: one not taken by then is
 * dropped, never handed to a later request (a refresh an hour on must ask the server itself).
 */
export function closeEarlyRequests(): void {
  (globalThis as { __ebsEarlyRequests?: EarlyRequests | null }).__ebsEarlyRequests = null;
}
