/**
 * Prepared statements on PostgreSQL as named `pg` queries: pg parses a name's text once per
 * connection and then only binds and executes it. Outside a transaction a statement runs on the
 * pool; inside one, on the transaction's client.
 */
import type { SqlError } from "@effect/sql"
import { Prepared } from "@wms/sql"
import { Effect, Layer } from "effect"
import type * as Pg from "pg"
import { PgPool } from "./PgPool.js"
import { failure, PgReservedConnection } from "./PgReservedConnection.js"

// The config (and its parameters) is let go of once pg has it, as `submit` does on a held client.
const onPool = <Row>(pool: Pg.Pool, statement: { config: Pg.QueryConfig | undefined }) =>
  Effect.async<ReadonlyArray<Row>, SqlError.SqlError>((resume) => {
    const config = statement.config!
    statement.config = undefined
    pool.query(config, (error: Error | undefined, result: Pg.QueryResult) => {
      resume(error ? Effect.fail(failure(error)) : Effect.succeed(result.rows))
    })
  })

// One name per distinct text, the same on every pool of the process, so that two layers on one
// pool never clash: pg refuses a name it has prepared on a connection for another text.
const names = new Map<string, string>()

const nameOf = (text: string) => {
  let name = names.get(text)
  if (name === undefined) {
    name = `wms_${names.size}`
    names.set(text, name)
  }
  return name
}

export const layer = Layer.effect(
  Prepared.Prepared,
  Effect.map(PgPool, (pool) =>
    Prepared.make(<Row extends object>(text: string): Prepared.Runner<Row> => {
      const name = nameOf(text)
      const numbered = Prepared.numberPlaceholders(text)
      const config = (params: ReadonlyArray<unknown>) => ({ name, text: numbered, values: params as Array<unknown> })
      return {
        outside: (params) => Effect.suspend(() => onPool<Row>(pool, { config: config(params) })),
        // A transaction opened by `sql.withTransaction` holds @effect/sql-pg's connection, whose
        // client is not reachable: the statement runs there unnamed.
        inside: (connection, params) =>
          connection instanceof PgReservedConnection
            ? connection.rows(config(params))
            : connection.execute(numbered, params, undefined) as Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
      }
    }))
)
