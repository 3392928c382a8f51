// Builds the server into apps/server/dist: one ES module per entry (the server, the forwarder, the
// admin command line), the project's own TypeScript (server and contract) bundled, every npm
// package left to node_modules.
// Starting the built server needs no TypeScript loader: less memory and a faster start (docs/performance.md).
// `node scripts/build-server.mjs --if-outdated` builds only when a source is newer than the build.
import { copyFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = path.join(root, 'apps/server/dist/main.mjs');
const sources = ['apps/server/src', 'packages/contract/src'].map((p) => path.join(root, p));

/** The newest modification time of any file under dir. */
export function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

export function serverBuildIsOutdated() {
  return !existsSync(SERVER_ENTRY) || statSync(SERVER_ENTRY).mtimeMs < Math.max(...sources.map(newest));
}

/** Builds into apps/server/dist, or into another folder under apps/server (where node_modules resolve). */
export async function buildServer(outdir = 'apps/server/dist') {
  const target = path.resolve(root, outdir);
  await build({
    entryPoints: {
      main: 'apps/server/src/main.ts',
      forwarder: 'apps/server/src/forwarder.ts',
      admin: 'apps/server/src/cli/admin.ts',
    },
    absWorkingDir: root,
    outdir: target,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'packages-stay-in-node-modules',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@ebs/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  // Read at run time beside the module that loads it (modules/identity/common-passwords.ts).
  copyFileSync(
    path.join(root, 'apps/server/src/modules/identity/common-passwords.txt'),
    path.join(target, 'common-passwords.txt'),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `--out <folder>`: a build of its own elsewhere under apps/server (the server tests make one per run).
  const out = process.argv.indexOf('--out');
  const outdir = out > 0 ? process.argv[out + 1] : 'apps/server/dist';
  if (out > 0 || !process.argv.includes('--if-outdated') || serverBuildIsOutdated()) {
    const started = Date.now();
    await buildServer(outdir);
    console.log(`Server built into ${outdir} in ${Date.now() - started} ms`);
  }
}
