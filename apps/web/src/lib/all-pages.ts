export interface Page<T> {
  items: T[];
  totalCount: number;
}

/**
 * spec A §7: pages through a list in blocks of `pageSize` until totalCount is reached. The first
 * page tells the count; the rest are asked for together.
 */
export async function fetchAllPages<T>(
  pageSize: number,
  fetchPage: (offset: number) => Promise<Page<T>>,
): Promise<T[]> {
  const first = await fetchPage(0);
  const offsets: number[] = [];
  for (let offset = pageSize; offset < first.totalCount; offset += pageSize) offsets.push(offset);
  const rest = await Promise.all(offsets.map(fetchPage));
  return [first, ...rest].flatMap((page) => page.items);
}
