interface MethodRow {
  /** A method, or a namespace ending in `*`. */
  method: string;
}

export interface MethodSearch<T extends MethodRow> {
  rows: T[];
  /** The namespace row that prices the method typed, when no row names that method itself. */
  pricedBy?: T;
}

/**
 * The rows whose name holds the text typed (any case); and, as the gateway looks a method up, when
 * no row is that method, the longest namespace it falls in: debug_traceTransaction finds debug_trace*.
 */
export function searchMethods<T extends MethodRow>(rows: readonly T[], typed: string): MethodSearch<T> {
  const text = typed.trim().toLowerCase();
  if (!text) return { rows: [...rows] };
  const named = rows.filter((row) => row.method.toLowerCase().includes(text));
  if (named.some((row) => row.method.toLowerCase() === text)) return { rows: named };
  const pricedBy = rows
    .filter((row) => row.method.endsWith('*') && text.startsWith(row.method.slice(0, -1).toLowerCase()))
    .sort((a, b) => b.method.length - a.method.length)[0];
  if (!pricedBy) return { rows: named };
  return { rows: [pricedBy, ...named.filter((row) => row !== pricedBy)], pricedBy };
}
