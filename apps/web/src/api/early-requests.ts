/**
 * The answers of the requests public/boot.js started before the console's code arrived (the
 * session's refresh and the public configuration). Each is taken once, by the first request for the
 * same method and path that sends nothing the early one did not: a later one asks the server again.
 */
type EarlyRequests = Record<string, Promise<Response> | undefined>;

const early = (): EarlyRequests | undefined =>
  (globalThis as { __ebsEarlyRequests?: EarlyRequests }).__ebsEarlyRequests;

export function takeEarlyRequest(method: string, path: string): Promise<Response> | undefined {
  const requests = early();
  const key = `${method} ${path}`;
  const answer = requests?.[key];
  if (requests && answer) delete requests[key];
  return answer;
}
