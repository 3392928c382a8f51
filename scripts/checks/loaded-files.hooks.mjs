import { appendFileSync } from 'node:fs';

/** A module hook that writes each file of the project that Node loads to LOADED_FILES_LOG, one URL a line. */
export async function load(url, context, next) {
  if (url.startsWith('file:') && !url.includes('/node_modules/'))
    appendFileSync(process.env.LOADED_FILES_LOG, `${url}\n`);
  return next(url, context);
}
