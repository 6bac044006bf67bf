/**
 * The PostgreSQL store: a connection pool on one database, migrated at start-up, behind the
 * core's ports.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { migrations, repositories } from "@wms/sql"
import { Effect, Layer } from "effect"
import * as PgPool from "./PgPool.js"
import * as PgPrepared from "./PgPrepared.js"
import * as PgTransactor from "./PgTransactor.js"

export interface PgStoreOptions {
  /** A `postgres://` connection URL. */
  readonly url: string
  /** The most connections the pool opens (default 10). */
  readonly maxConnections?: number
}

const migrator = PgMigrator.layer({ loader: PgMigrator.fromRecord(migrations) }).pipe(
  Layer.provide(NodeContext.layer)
)

// The store's pool, and @effect/sql-pg's client on it (the pool stays the store's to end).
const connection = (options: PgStoreOptions) =>
  Layer.unwrapEffect(
    Effect.map(PgPool.PgPool, (pool) => PgClient.layerFromPool({ acquire: Effect.succeed(pool) }))
  ).pipe(
    Layer.provideMerge(PgPool.layer({ url: options.url, maxConnections: options.maxConnections ?? 10 }))
  )

/**
 * Every port of the core on a migrated PostgreSQL database; the `SqlClient` and the pool are
 * exposed too. Each call builds its own layers: two stores in one process never share a
 * repository.
 */
export const layer = (options: PgStoreOptions) =>
  Layer.fresh(Layer.mergeAll(repositories, PgTransactor.layer).pipe(Layer.provide(PgPrepared.layer))).pipe(
    Layer.provideMerge(Layer.fresh(migrator)),
    Layer.provideMerge(connection(options)),
    Layer.orDie
  )
