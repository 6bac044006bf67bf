/**
 * Statements of fixed text, prepared once per connection and run without @effect/sql's compiling
 * of a template on every call (about 25 µs a statement on SQLite, 100 to 170 µs on PostgreSQL):
 * for the repository methods of the hottest requests. Text uses `?` placeholders; a store numbers
 * them where its dialect needs it. Parameters are what the driver binds as they are: booleans as
 * 1 and 0, a list as one parameter (`Dialect.inTexts`). Inside `Transactor.atomically` a statement
 * runs on the transaction's connection, like any `sql` template; outside, it never sees another
 * transaction's writes half done. It opens no span.
 */
import type { SqlError } from "@effect/sql"
import { Context, type Effect } from "effect"

/** A prepared statement: its rows (none for a write without `RETURNING`) for the given parameters. */
export type PreparedStatement<Row> = (params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>

export class Prepared extends Context.Tag("@wms/sql/Prepared")<Prepared, {
  readonly prepare: <Row extends object>(text: string) => PreparedStatement<Row>
}>() {}

/** `$1`, `$2`, … for each `?` of `text` (the texts given to `prepare` hold no `?` in literals). */
export const numberPlaceholders = (text: string): string => {
  let index = 0
  return text.replace(/\?/g, () => `$${++index}`)
}
