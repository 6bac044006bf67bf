/**
 * Statements of fixed text, prepared once per connection and run without @effect/sql's compiling
 * of a template on every call: for the repository methods of the hottest requests. Text uses `?`
 * placeholders; a store numbers them where its dialect needs it. Parameters are what the driver
 * binds as they are: booleans as 1 and 0, a list as one parameter (`Dialect.inTexts`). Inside
 * `Transactor.atomically` a statement runs on the transaction's connection, like any `sql`
 * template; outside, it never sees another transaction's writes half done. It opens no span.
 */
import { SqlClient, type SqlConnection, type SqlError } from "@effect/sql"
import { Context, Effect } from "effect"

/** A prepared statement: its rows (none for a write without `RETURNING`) for the given parameters. */
export type PreparedStatement<Row> = (
  params: ReadonlyArray<unknown>
) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>

export class Prepared extends Context.Tag("@wms/sql/Prepared")<Prepared, {
  readonly prepare: <Row extends object>(text: string) => PreparedStatement<Row>
}>() {}

/** How a store runs one text: with no transaction open in the fiber, and on the open one's connection. */
export interface Runner<Row> {
  readonly outside: PreparedStatement<Row>
  readonly inside: (
    connection: SqlConnection.Connection,
    params: ReadonlyArray<unknown>
  ) => ReturnType<PreparedStatement<Row>>
}

/** `Prepared` whose statements run on the fiber's transaction when it has one, and outside any otherwise. */
export const make = (runnerOf: <Row extends object>(text: string) => Runner<Row>): Prepared["Type"] =>
  Prepared.of({
    prepare: <Row extends object>(text: string): PreparedStatement<Row> => {
      const { inside, outside } = runnerOf<Row>(text)
      return (params) =>
        Effect.withFiberRuntime((fiber) => {
          const open = Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)
          return open._tag === "None" ? outside(params) : inside(open.value[0], params)
        })
    }
  })

/** `$1`, `$2`, … for each `?` of `text` (the texts given to `prepare` hold no `?` in literals). */
export const numberPlaceholders = (text: string): string => {
  let index = 0
  return text.replace(/\?/g, () => `$${++index}`)
}
