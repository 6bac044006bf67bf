/**
 * The store's `SqlClient` on better-sqlite3, adapted from `SqliteClient.make` of
 * @effect/sql-sqlite-node. That client keeps its connection to itself, and the store needs it: its
 * `Prepared` statements run on the same connection, without @effect/sql's compiling of a template,
 * prepare cache and spans on every call, which are most of a template statement's time.
 *
 * As there: one connection in WAL mode, guarded by a lock of one holder (`ConnectionLock`, in place
 * of the semaphore of one permit there). A statement outside a transaction takes the lock only to
 * acquire the connection (better-sqlite3 runs it synchronously, so no other fiber runs in between);
 * a transaction holds it from `BEGIN` to its end, so that no other fiber's statement sees its
 * writes half done or joins it.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, type SqlConnection, Statement } from "@effect/sql"
import { Transactor } from "@wms/core"
import { Prepared } from "@wms/sql"
import type Sqlite from "better-sqlite3"
import { Cache, Context, Duration, Effect, Layer, Scope, Stream } from "effect"
import { createRequire } from "node:module"
import * as ConnectionLock from "./ConnectionLock.js"
import * as SqlitePrepared from "./SqlitePrepared.js"
import { executeError, prepareError, rowsOf } from "./SqliteStatement.js"
import * as SqliteTransactor from "./SqliteTransactor.js"

export interface SqliteClientOptions {
  /** A file path or `:memory:`. */
  readonly filename: string
}

// Required as the first database opens, never imported: an import is hoisted above the check of the
// Node.js version (`@wms/core`), in the bundled server too, and the driver's addon crashes an old Node.
const requireDriver = (): typeof Sqlite => createRequire(import.meta.url)("better-sqlite3")

const openDatabase = (filename: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const Driver = requireDriver()
      const db = new Driver(filename)
      // Readers never wait for the writer, nor the writer for them.
      db.pragma("journal_mode = WAL")
      return db
    }),
    (db) => Effect.sync(() => db.close())
  )

// The statements of `sql` templates, whose texts are as many as their call sites and their
// variants (IN lists of every length): a bounded cache, as in @effect/sql-sqlite-node.
const makeConnection = (db: Sqlite.Database) =>
  Effect.map(
    Cache.make({
      capacity: 200,
      timeToLive: Duration.minutes(10),
      lookup: (text: string) => Effect.try({ try: () => db.prepare(text), catch: prepareError })
    }),
    (prepareCache): SqlConnection.Connection => {
      const execute = <A>(text: string, run: (statement: Sqlite.Statement) => A) =>
        Effect.flatMap(prepareCache.get(text), (statement) =>
          Effect.try({ try: () => run(statement), catch: executeError }))
      return {
        execute: (text, params, transformRows) => {
          const rows = execute(text, (statement) =>
            rowsOf(statement, params) as ReadonlyArray<object>)
          return transformRows === undefined ? rows : Effect.map(rows, transformRows)
        },
        executeRaw: (text, params) =>
          execute(text, (statement) => statement.reader ? statement.all(...params) : statement.run(...params)),
        executeValues: (text, params) =>
          execute(text, (statement) => {
            if (!statement.reader) {
              statement.run(...params)
              return []
            }
            // The statement is shared through the cache: back to rows as objects at once.
            statement.raw(true)
            try {
              return statement.all(...params) as ReadonlyArray<ReadonlyArray<unknown>>
            } finally {
              statement.raw(false)
            }
          }),
        executeUnprepared: (text, params, transformRows) => {
          const rows = Effect.try({
            try: () => rowsOf(db.prepare(text), params) as ReadonlyArray<object>,
            catch: executeError
          })
          return transformRows === undefined ? rows : Effect.map(rows, transformRows)
        },
        // As in @effect/sql-sqlite-node; nothing here streams.
        executeStream: () => Stream.dieMessage("executeStream not implemented")
      }
    }
  )

const make = (options: SqliteClientOptions) =>
  Effect.gen(function*() {
    const db = yield* openDatabase(options.filename)
    const connection = yield* makeConnection(db)
    const lock = ConnectionLock.make()
    const state: SqliteTransactor.TransactionState = { open: false }
    const client = yield* SqlClient.make({
      acquirer: lock.withLock(Effect.succeed(connection)),
      // Held until the transaction's scope closes, after its COMMIT or ROLLBACK.
      transactionAcquirer: Effect.uninterruptibleMask((restore) =>
        Effect.as(
          Effect.zipRight(
            restore(lock.take),
            Effect.tap(Effect.scope, (scope) => {
              state.open = true
              return Scope.addFinalizer(
                scope,
                Effect.sync(() => {
                  state.open = false
                  lock.release()
                })
              )
            })
          ),
          connection
        )
      ),
      compiler: Statement.makeCompilerSqlite(),
      spanAttributes: [["db.system.name", "sqlite"]]
    })
    const prepared = SqlitePrepared.make({ db, lock, connection, transactionOpen: () => state.open })
    return Context.make(SqlClient.SqlClient, client).pipe(
      Context.add(Prepared.Prepared, prepared),
      Context.add(Transactor, SqliteTransactor.make({ db, lock, connection, state }))
    )
  })

/** The `SqlClient`, `Prepared` statements and `Transactor` on one connection to `options.filename`. */
export const layer = (options: SqliteClientOptions) =>
  Layer.scopedContext(make(options)).pipe(Layer.provide(Reactivity.layer))
