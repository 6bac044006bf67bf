/**
 * Batched writes: many rows per statement, in chunks that stay under both dialects' limits on
 * bound parameters (SQLite 32766, PostgreSQL 65535).
 */
import type { SqlClient, SqlError } from "@effect/sql"
import { Effect } from "effect"

/** Rows per statement for a table of `columns` columns. */
export const rowsPerStatement = (columns: number) => Math.max(1, Math.floor(16_000 / columns))

/** `items` in consecutive chunks of at most `size`. */
export const chunked = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const chunks: Array<ReadonlyArray<A>> = []
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size))
  return chunks
}

/** The table and columns a bulk insert writes, and what it returns (`"id"`, or nothing). */
export interface BulkInsert {
  readonly table: string
  readonly columns: ReadonlyArray<string>
  readonly returning?: string
}

/**
 * Multi-row INSERTs with the statement text built by hand: every full chunk has the same text
 * (so the driver's statement cache prepares it once) and its values go as one flat parameter
 * array. This skips `sql.insert`, which builds a fragment and a placeholder per value: on the
 * hundreds of thousands of rows of a wave start that was most of the time spent outside the store.
 */
export const makeBulkInsert = (sql: SqlClient.SqlClient) => {
  const placeholder = sql.onDialectOrElse({ pg: () => (n: number) => `$${n}`, orElse: () => (_: number) => "?" })
  // Only the text of full chunks is kept: one per statement, whatever the number of rows written.
  const fullTexts = new Map<BulkInsert, string>()

  const text = (insert: BulkInsert, rows: number) => {
    const width = insert.columns.length
    let values = ""
    let n = 0
    for (let row = 0; row < rows; row++) {
      values += row === 0 ? "(" : ",("
      for (let column = 0; column < width; column++) values += column === 0 ? placeholder(++n) : `,${placeholder(++n)}`
      values += ")"
    }
    const returning = insert.returning === undefined ? "" : ` RETURNING ${insert.returning}`
    return `INSERT INTO ${insert.table} (${insert.columns.join(", ")}) VALUES ${values}${returning}`
  }

  /**
   * Inserts `items`, `push` appending the values of one item to `params` in column order; answers
   * the returned rows, in statement order.
   */
  return <A, R extends object = never>(
    insert: BulkInsert,
    items: ReadonlyArray<A>,
    push: (params: Array<unknown>, item: A) => void
  ): Effect.Effect<Array<R>, SqlError.SqlError> =>
    Effect.suspend(() => {
      const size = rowsPerStatement(insert.columns.length)
      const starts: Array<number> = []
      for (let start = 0; start < items.length; start += size) starts.push(start)
      return Effect.reduce(starts, [] as Array<R>, (returned, start) => {
        const end = Math.min(start + size, items.length)
        const params: Array<unknown> = []
        for (let i = start; i < end; i++) push(params, items[i])
        let statement = end - start === size ? fullTexts.get(insert) : undefined
        if (statement === undefined) {
          statement = text(insert, end - start)
          if (end - start === size) fullTexts.set(insert, statement)
        }
        return Effect.map(sql.unsafe<R>(statement, params), (rows) => {
          if (insert.returning !== undefined) { for (const row of rows) returned.push(row) }
          return returned
        })
      })
    })
}
