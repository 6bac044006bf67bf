/**
 * The SQLite store: one file (or `:memory:`), migrated at start-up, behind the core's ports.
 */
import { Migrator, SqlClient } from "@effect/sql"
import type { Transactor } from "@wms/core"
import { migrations, type Prepared, repositories } from "@wms/sql"
import { Effect, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import * as SqliteClient from "./SqliteClient.js"

export interface SqliteStoreOptions {
  /** A file path, created with its folder when missing, or `:memory:`. */
  readonly filename: string
}

const pragmas = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Wait for another process's write lock instead of failing at once.
    yield* sql`PRAGMA busy_timeout = 10000`
    yield* sql`PRAGMA foreign_keys = ON`
    yield* sql`PRAGMA synchronous = NORMAL`
  }).pipe(Effect.orDie)
)

// @effect/sql-sqlite-node's migrator without its schema dump (which needs its own client): the
// same table (`effect_sql_migrations`) and steps, so existing databases open as before.
const migrator = Layer.effectDiscard(Migrator.make({})({ loader: Migrator.fromRecord(migrations) }))

const client = (options: SqliteStoreOptions): Layer.Layer<SqlClient.SqlClient | Prepared.Prepared | Transactor> =>
  Layer.unwrapEffect(Effect.sync(() => {
    if (options.filename !== ":memory:") mkdirSync(dirname(options.filename), { recursive: true })
    return SqliteClient.layer({ filename: options.filename })
  }))

/**
 * Every port of the core on a migrated SQLite database; the `SqlClient` and `Prepared` are exposed
 * too. Each call builds its own layers: two stores in one process never share a repository.
 */
export const layer = (options: SqliteStoreOptions) =>
  Layer.fresh(repositories).pipe(
    Layer.provideMerge(Layer.fresh(Layer.merge(migrator, pragmas))),
    Layer.provideMerge(client(options)),
    Layer.orDie
  )
