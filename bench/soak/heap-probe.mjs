// Loaded into each server process by the soak (NODE_OPTIONS=--import): the server has no endpoint
// for its V8 heap, so this writes the figures to SOAK_HEAP_FILE every second for the soak to read.
// Plain JavaScript: the built server runs without a TypeScript loader.
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.SOAK_HEAP_FILE;
if (file) {
  setInterval(() => {
    const { heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    // Written aside, then renamed over: the soak never reads half a file.
    writeFileSync(`${file}.new`, JSON.stringify({ heapUsed, heapTotal, external, arrayBuffers }));
    renameSync(`${file}.new`, file);
  }, 1000).unref();
}
