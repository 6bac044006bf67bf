/**
 * Batched writes: many rows per statement, in chunks that stay under both dialects' limits on
 * bound parameters (SQLite 32766, PostgreSQL 65535).
 */

/** Rows per statement for a table of `columns` columns. */
export const rowsPerStatement = (columns: number) => Math.max(1, Math.floor(16_000 / columns))

/** `items` in consecutive chunks of at most `size`. */
export const chunked = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const chunks: Array<ReadonlyArray<A>> = []
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size))
  return chunks
}
