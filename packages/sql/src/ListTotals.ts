/**
 * The number of rows a list read in a window matches without it, counted by the read's own
 * statement for a caller that asks (`listTotal`): a window function counts the rows before LIMIT
 * and OFFSET apply, so a page and its total come from one snapshot.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import { listTotal, type ListWindow, noteListTotal } from "@wms/core"
import { Effect, FiberRef } from "effect"

/** The column of the count, last of the statement's columns, taken off each row by `counted`. */
const column = "listed_total"

/** The read's page statement for a window: its columns end with `totalColumn` of the window. */
export type Page<Row> = (window: ListWindow, total: ReturnType<typeof totalColumn>) => Effect.Effect<
  ReadonlyArray<Row>,
  SqlError.SqlError
>

/** `, count(*) OVER () AS listed_total` after the columns of a page that is counted; nothing otherwise. */
export const totalColumn = (sql: SqlClient.SqlClient, counts: boolean) =>
  sql.literal(counts ? `, count(*) OVER () AS ${column}` : "")

const totalOf = (row: Record<string, unknown> | undefined) => row === undefined ? 0 : Number(row[column])

/**
 * The rows of `page` in `window`. With a `limit` and a `ListTotal` asked for, the statement counts
 * the list too: the total goes there and off the rows. An empty page carries no count: one that
 * may not be the whole list (an `offset`, a `limit` of 0) reads the list's first row for it, in a
 * second statement.
 */
export const counted = <Row>(
  sql: SqlClient.SqlClient,
  window: ListWindow,
  page: Page<Row>
): Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError> => {
  const { limit, offset = 0 } = window
  if (limit === undefined) return page(window, totalColumn(sql, false))
  const countedPage = page as unknown as Page<Record<string, unknown>>
  return FiberRef.getWith(listTotal, (asked) => {
    if (asked === undefined) return page(window, totalColumn(sql, false))
    return Effect.flatMap(countedPage(window, totalColumn(sql, true)), (rows) => {
      const total = rows.length > 0 || (offset === 0 && limit > 0)
        ? Effect.succeed(totalOf(rows[0]))
        : Effect.map(countedPage({ limit: 1 }, totalColumn(sql, true)), (first) => totalOf(first[0]))
      return Effect.flatMap(total, (n) =>
        Effect.as(
          noteListTotal(n),
          rows.map(({ [column]: _total, ...row }) => row as Row)
        ))
    })
  })
}
