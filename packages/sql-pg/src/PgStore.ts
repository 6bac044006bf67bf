/**
 * The PostgreSQL store: a connection pool on one database, migrated at start-up, behind the
 * core's ports.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { PgMigrator } from "@effect/sql-pg"
import { migrations, repositories } from "@wms/sql"
import { Layer } from "effect"
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

/**
 * Every port of the core on a migrated PostgreSQL database; the `SqlClient` and `Prepared` are
 * exposed too. Each call builds its own layers: two stores in one process never share a repository.
 */
export const layer = (options: PgStoreOptions) =>
  Layer.fresh(Layer.mergeAll(repositories, PgTransactor.layer).pipe(Layer.provideMerge(PgPrepared.layer))).pipe(
    Layer.provideMerge(Layer.fresh(migrator)),
    Layer.provideMerge(Layer.fresh(PgPool.client)),
    Layer.provide(PgPool.layer({ url: options.url, maxConnections: options.maxConnections ?? 10 })),
    Layer.orDie
  )
