/** An EVM address: 0x and 40 hexadecimal digits, in any letter case. */
const ADDRESS = /^0x[0-9a-f]{40}$/i;
/** What separates the entries of a typed or pasted list: white space, commas, semicolons. */
const SEPARATORS = /[\s,;]+/;
/** Quotes and brackets around an entry pasted from JSON or a spreadsheet. */
const WRAPPING = /^["'`[\](){}]+|["'`[\](){}]+$/g;
/** A 0x value standing alone in a file: not the tail of a longer word, and whole (a hash is one value). */
const HEX_VALUE = /(?<![0-9a-z])0x[0-9a-f]+(?![0-9a-z])/gi;

/** An entry of a list that is not an address, with its place among the entries (from 0, as the server counts). */
export interface InvalidEntry {
  index: number;
  value: string;
}

export interface ParsedAddresses {
  /** The distinct addresses, lowercase, in the order first given. */
  addresses: string[];
  /** Entries that repeat an address given before, in any letter case: left out. */
  duplicates: number;
  invalid: InvalidEntry[];
}

/**
 * A list of addresses as typed or pasted: entries separated by new lines, commas, semicolons or
 * spaces. Addresses are compared and sent lowercase: a mixed-case address and its lowercase form
 * are one address, and lowercase carries no checksum the server could find wrong.
 */
export function parseAddresses(text: string): ParsedAddresses {
  const seen = new Set<string>();
  const parsed: ParsedAddresses = { addresses: [], duplicates: 0, invalid: [] };
  const entries = text
    .split(SEPARATORS)
    .map((entry) => entry.replace(WRAPPING, ''))
    .filter((entry) => entry !== '');
  entries.forEach((value, index) => {
    if (!ADDRESS.test(value)) {
      parsed.invalid.push({ index, value });
      return;
    }
    const address = value.toLowerCase();
    if (seen.has(address)) parsed.duplicates += 1;
    else {
      seen.add(address);
      parsed.addresses.push(address);
    }
  });
  return parsed;
}

export interface FileAddresses {
  /** The distinct addresses found, lowercase, in the order of the file. */
  addresses: string[];
  /** Other 0x values (a transaction hash, a value cut short): not addresses, left out. */
  skipped: string[];
}

/**
 * The addresses of a file, whatever its layout: every 0x + 40 hexadecimal digits standing alone,
 * so a CSV export's header, its other columns and its quotes do not matter.
 */
export function addressesInFile(text: string): FileAddresses {
  const seen = new Set<string>();
  const found: FileAddresses = { addresses: [], skipped: [] };
  for (const [value] of text.matchAll(HEX_VALUE)) {
    if (!ADDRESS.test(value)) {
      found.skipped.push(value);
      continue;
    }
    const address = value.toLowerCase();
    if (!seen.has(address)) {
      seen.add(address);
      found.addresses.push(address);
    }
  }
  return found;
}

/** The list's text with more addresses after it, one a line. */
export const appendAddresses = (text: string, more: readonly string[]) =>
  [text.trimEnd(), ...more].filter((line) => line !== '').join('\n');

/** `list` in consecutive pieces of at most `size` (the server takes at most so many in one call). */
export function inChunks<T>(list: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < list.length; start += size) chunks.push(list.slice(start, start + size));
  return chunks;
}

/** A file's text, read in the browser. */
export const readFileText = (file: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
