import type { ColumnType } from 'kysely';

/** Column types shared by the table interfaces of schema.ts and its companions. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** numeric columns travel as strings so money is never a binary float. */
export type Numeric = ColumnType<string, string | number, string | number>;
export type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;
