import { abbreviate } from '../lib/format';

/** A table cell's long id, address or hash, shortened to "3f2b...9c1a" and whole on hover. */
export const shortValue = (value: string | null | undefined) =>
  value ? <span title={value}>{abbreviate(value)}</span> : null;
