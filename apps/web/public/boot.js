// The two calls every first page waits on, started as soon as the page's HTML is read rather than
// once its code has arrived and run: the session's refresh (by its cookie) and the public
// configuration. The console's HTTP client (src/api/early-requests.ts) takes their answers instead
// of asking again, once, at start-up. Deferred, it runs before the console's module script.
(() => {
  if ('__ebsEarlyRequests' in window) return;
  const early = {};
  const start = (method, path) => {
    const answer = fetch(path, { method, headers: { accept: 'application/json' }, credentials: 'same-origin' });
    // Taken or not, a failure here is the taker's to see, never an unhandled rejection.
    answer.catch(() => {});
    early[`${method} ${path}`] = answer;
  };
  start('POST', '/auth/refresh');
  start('GET', '/api/v1.0/config');
  window.__ebsEarlyRequests = early;
})();
