import { Writable } from 'node:stream';

/** A log stream for serverFor that keeps every line, so a test can read what the server logged. */
export function logSink(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}
