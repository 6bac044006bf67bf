/**
 * Batched writes: many rows per statement, in chunks that stay under both dialects' limits on
 * bound parameters (SQLite 32766, PostgreSQL 65535).
 */
import type { SqlClient, SqlError } from "@effect/sql"
import { Effect } from "effect"
import type { Prepared, PreparedStatement } from "./Prepared.js"

/** Rows per statement for a table of `columns` columns. */
export const rowsPerStatement = (columns: number) => Math.max(1, Math.floor(16_000 / columns))

/** `items` in consecutive chunks of at most `size`. */
export const chunked = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const chunks: Array<ReadonlyArray<A>> = []
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size))
  return chunks
}

/** Where the values of a bulk insert's rows go, in column order. */
export interface ParameterList {
  readonly push: (...values: Array<unknown>) => void
}

/** The table and columns a bulk insert writes, and what it returns (`"id"`, or nothing). */
export interface BulkInsert {
  readonly table: string
  readonly columns: ReadonlyArray<string>
  readonly returning?: string
}

/** Fewer rows than this go as one `sql` statement: the texts of all these counts are few. */
const fewRows = 1

/**
 * Multi-row INSERTs with the statement text built by hand: its values go as one flat parameter
 * array. This skips `sql.insert`, which builds a fragment and a placeholder per value: on the
 * hundreds of thousands of rows of a wave start that was most of the time spent outside the store.
 *
 * Rows go in statements of `rowsPerStatement` rows, then of the powers of two below it that make up
 * the rest, down to `fewRows`, each a `Prepared` statement: a dozen texts per table, prepared once,
 * whatever the counts written (SQLite keeps every text it prepared, about a megabyte for a full
 * chunk). The last few rows go as one `sql` statement. Through `sql`, a statement's parameters and
 * rows outlive it in the heap (its span and scope keep them past the next minor collections, into
 * the old generation): on a wave start that was most of what its memory grew by.
 */
export const makeBulkInsert = (sql: SqlClient.SqlClient, prepared: Prepared["Type"]) => {
  const placeholder = sql.onDialectOrElse({ pg: () => (n: number) => `$${n}`, orElse: () => (_: number) => "?" })
  const statements = new Map<BulkInsert, Map<number, PreparedStatement<any>>>()

  const text = (insert: BulkInsert, rows: number, placeholder: (n: number) => string) => {
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

  /** The statement of `rows` rows: `Prepared` for the counts it is used for, `sql` for a few rows. */
  const statement = <R extends object>(insert: BulkInsert, rows: number) => {
    if (rows < fewRows) {
      return (params: ReadonlyArray<unknown>) => sql.unsafe<R>(text(insert, rows, placeholder), params)
    }
    let byRows = statements.get(insert)
    if (byRows === undefined) statements.set(insert, byRows = new Map())
    let prepare = byRows.get(rows)
    if (prepare === undefined) {
      prepare = prepared.prepare(text(insert, rows, () => "?"))
      byRows.set(rows, prepare)
    }
    return prepare as PreparedStatement<R>
  }

  /** The statements that write `count` rows (first row, row count): full chunks, powers of two, the few left. */
  const parts = (count: number, size: number): Array<{ readonly start: number; readonly rows: number }> => {
    const all: Array<{ start: number; rows: number }> = []
    let start = 0
    for (; count - start >= size; start += size) all.push({ start, rows: size })
    for (let rows = 2 ** Math.floor(Math.log2(size)); rows >= fewRows; rows /= 2) {
      if (count - start >= rows) {
        all.push({ start, rows })
        start += rows
      }
    }
    if (start < count) all.push({ start, rows: count - start })
    return all
  }

  /**
   * Inserts `items`, `push` appending the values of one item to `params` in column order; answers
   * the returned rows, in statement order.
   */
  return <A, R extends object = never>(
    insert: BulkInsert,
    items: ReadonlyArray<A>,
    push: (params: ParameterList, item: A) => void
  ): Effect.Effect<Array<R>, SqlError.SqlError> =>
    Effect.suspend(() =>
      Effect.reduce(parts(items.length, rowsPerStatement(insert.columns.length)), [] as Array<R>, (returned, part) => {
        // Of its final size from the start: an array grown by `push` to 16,000 values is a large
        // object, which V8 moves to the old generation at the first minor collection it is alive
        // in (on PostgreSQL, any during the statement's round trip).
        const params: Array<unknown> = new Array(part.rows * insert.columns.length)
        let next = 0
        const list: ParameterList = {
          push: (...values) => {
            for (const value of values) params[next++] = value
          }
        }
        for (let i = part.start; i < part.start + part.rows; i++) push(list, items[i])
        return Effect.map(statement<R>(insert, part.rows)(params), (rows) => {
          if (insert.returning !== undefined) { for (const row of rows) returned.push(row) }
          return returned
        })
      })
    )
}
