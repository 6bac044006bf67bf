/**
 * The store's own `pg` connection pool, and @effect/sql-pg's client on it: the `sql` templates run
 * through that client, while the prepared statements and transactions take the pool's clients
 * directly, skipping @effect/sql's per-statement work.
 */
import { SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Layer } from "effect"
import * as Pg from "pg"

export class PgPool extends Context.Tag("@wms/sql-pg/PgPool")<PgPool, Pg.Pool>() {}

export interface PgPoolOptions {
  /** A `postgres://` connection URL. */
  readonly url: string
  /** The most connections the pool opens. */
  readonly maxConnections: number
}

const connectTimeout = Duration.seconds(5)

// Opened with the options @effect/sql-pg's `PgClient.make` gives its own pool (no custom type
// parsers: pg's defaults), so connections and row values are what they were on `PgClient.layer`.
const open = (options: PgPoolOptions) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new Pg.Pool({
        connectionString: options.url,
        max: options.maxConnections,
        application_name: "@effect/sql-pg"
      })
      // An idle client whose connection drops reports it here, and the pool replaces it; left
      // without a listener, the error would end the process.
      pool.on("error", () => {})
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
  )

// Fails the layer at once on an unreachable database, as `PgClient.make` does, rather than at
// the first statement.
const check = (pool: Pg.Pool) =>
  Effect.tryPromise({
    try: () => pool.query("SELECT 1"),
    catch: (cause) => new SqlError.SqlError({ cause, message: "PgPool: Failed to connect" })
  }).pipe(
    Effect.timeoutFail({
      duration: connectTimeout,
      onTimeout: () =>
        new SqlError.SqlError({ cause: new Error("Connection timed out"), message: "PgPool: Connection timed out" })
    })
  )

/** A pool on the database, checked to answer, ended when the layer's scope closes. */
export const layer = (options: PgPoolOptions) => Layer.scoped(PgPool, Effect.tap(open(options), check))

/** @effect/sql-pg's `PgClient` (the `SqlClient`) on the pool, which stays the pool layer's to end. */
export const client = Layer.unwrapEffect(
  Effect.map(PgPool, (pool) => PgClient.layerFromPool({ acquire: Effect.succeed(pool) }))
)
