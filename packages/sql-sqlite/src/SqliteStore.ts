/**
 * The SQLite store: one file (or `:memory:`), migrated at start-up, behind the core's ports.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { SqlClient } from "@effect/sql"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-node"
import { migrations, repositories } from "@wms/sql"
import { Effect, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import * as SqliteTransactor from "./SqliteTransactor.js"

export interface SqliteStoreOptions {
  /** A file path, created with its folder when missing, or `:memory:`. */
  readonly filename: string
}

const pragmas = Layer.effectDiscard(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Wait for another process's write lock instead of failing at once.
  yield* sql`PRAGMA busy_timeout = 10000`
  yield* sql`PRAGMA foreign_keys = ON`
  yield* sql`PRAGMA synchronous = NORMAL`
}).pipe(Effect.orDie))

const migrator = SqliteMigrator.layer({ loader: SqliteMigrator.fromRecord(migrations) }).pipe(
  Layer.provide(NodeContext.layer)
)

const client = (options: SqliteStoreOptions) =>
  Layer.unwrapEffect(Effect.sync(() => {
    if (options.filename !== ":memory:") mkdirSync(dirname(options.filename), { recursive: true })
    return SqliteClient.layer({ filename: options.filename })
  }))

/**
 * Every port of the core on a migrated SQLite database; the `SqlClient` is exposed too. Each call
 * builds its own layers: two stores in one process never share a repository.
 */
export const layer = (options: SqliteStoreOptions) =>
  Layer.fresh(Layer.mergeAll(repositories, SqliteTransactor.layer)).pipe(
    Layer.provideMerge(Layer.fresh(Layer.merge(migrator, pragmas))),
    Layer.provideMerge(client(options)),
    Layer.orDie
  )
