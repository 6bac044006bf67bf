/**
 * An @effect/sql `Connection` on one `pg` client taken from the pool and held, for a transaction:
 * `sql` templates run on it through `SqlClient.TransactionConnection`, and prepared statements on
 * its `client`, so both see the same transaction.
 */
import { type SqlConnection, SqlError } from "@effect/sql"
import { Chunk, Effect, Option, Stream } from "effect"
import * as Pg from "pg"
import Cursor from "pg-cursor"

type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

/** The error of a statement that failed, as @effect/sql-pg reports it. */
export const failure = (cause: unknown) => new SqlError.SqlError({ cause, message: "Failed to execute statement" })

// A text of several statements (possible without parameters) answers with one result each.
const rowsOf = (result: Pg.QueryResult | ReadonlyArray<Pg.QueryResult>): ReadonlyArray<any> =>
  isResultList(result) ? result.map((each) => each.rows) : result.rows

const isResultList = (
  result: Pg.QueryResult | ReadonlyArray<Pg.QueryResult>
): result is ReadonlyArray<Pg.QueryResult> => Array.isArray(result)

// Asks the server to stop the client's running statement, as @effect/sql-pg does for an
// interrupted statement on a held client, so that the rollback that follows need not wait for it.
// It asks on a connection of its own: when the pool is exhausted, a pool client would come only
// after the transactions ahead of it end. Best effort, and bounded.
const cancelBackend = (pool: Pg.Pool, client: Pg.PoolClient): Effect.Effect<void> => {
  // pg's types leave out the backend's process id, which pg itself sets on the client.
  const processId = (client as Pg.PoolClient & { readonly processID?: number }).processID
  if (processId === undefined || pool.ending) return Effect.void
  return Effect.acquireUseRelease(
    Effect.sync(() => {
      const canceller = new Pg.Client(pool.options)
      canceller.on("error", () => {})
      return canceller
    }),
    (canceller) =>
      Effect.tryPromise(async () => {
        await canceller.connect()
        await canceller.query("SELECT pg_cancel_backend($1)", [processId])
      }),
    (canceller) => Effect.ignore(Effect.tryPromise(() => canceller.end()))
  ).pipe(Effect.ignore, Effect.interruptible, Effect.timeoutOption(5000), Effect.asVoid)
}

/** A statement not yet handed to pg. */
interface Statement {
  query: string | Pg.QueryConfig | Pg.QueryArrayConfig | undefined
  values: ReadonlyArray<unknown> | undefined
}

/**
 * Runs `statement` on `client`, letting go of it once pg has it. What an `Effect.async`
 * registration captures stays reachable for a while after its step ends (a plain `await` of the
 * same query does not keep it): captured here, the parameters of a wave start's bulk inserts
 * outlived minor collections into the old generation, which grew until the next full collection.
 * It registers no canceller: an interrupted statement is cancelled once, by the transaction's
 * rollback (`cancelRunning`), where a canceller on each would cost every statement the steps of an
 * interrupt handler.
 */
const submit = <A>(
  client: Pg.ClientBase,
  statement: Statement,
  onResult: (result: Pg.QueryResult) => A,
  settled: () => void
) =>
  Effect.async<A, SqlError.SqlError>((resume) => {
    const { query, values } = statement
    statement.query = statement.values = undefined
    const callback = (error: Error | undefined, result: Pg.QueryResult) => {
      settled()
      resume(error ? Effect.fail(failure(error)) : Effect.succeed(onResult(result)))
    }
    if (typeof query === "string") client.query(query, values as Array<unknown>, callback)
    else client.query(query!, callback)
  })

export class PgReservedConnection implements SqlConnection.Connection {
  // Set once the client may be unusable or left inside a transaction: it is then closed on
  // release rather than handed to the next user.
  private broken: Error | undefined = undefined
  private readonly onError = (error: Error) => {
    this.broken = error
  }
  // Statements handed to pg whose answer has not come: one still runs after its fiber was interrupted.
  private running = 0
  private readonly settled = () => {
    this.running--
  }
  private readonly cancel: Effect.Effect<void>

  constructor(readonly client: Pg.PoolClient, pool: Pg.Pool) {
    // A checked-out client without an "error" listener would end the process on a lost connection.
    client.on("error", this.onError)
    this.cancel = Effect.suspend(() => cancelBackend(pool, client))
  }

  // A statement's text with its values goes through pg's cheapest call; a config (a name, or rows
  // as arrays) is copied by pg on every call.
  private run<A>(
    query: string | Pg.QueryConfig | Pg.QueryArrayConfig,
    values: ReadonlyArray<unknown>,
    onResult: (result: Pg.QueryResult) => A
  ) {
    return Effect.suspend(() => {
      this.running++
      return submit(this.client, { query, values }, onResult, this.settled)
    })
  }

  /**
   * Cancels the statement an interrupted fiber left running, if any, so that the rollback that
   * follows need not wait for it to end.
   */
  cancelRunning(): Effect.Effect<void> {
    return Effect.suspend(() => this.running > 0 ? this.cancel : Effect.void)
  }

  /** The rows of a statement given as a pg config, such as a named one. */
  rows(config: Pg.QueryConfig): Effect.Effect<ReadonlyArray<any>, SqlError.SqlError> {
    return this.run(config, [], rowsOf)
  }

  execute(sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) {
    const rows = this.run(sql, params, rowsOf)
    return transformRows ? Effect.map(rows, transformRows) : rows
  }

  executeRaw(sql: string, params: ReadonlyArray<unknown>) {
    return this.run<unknown>(sql, params, (result) => result)
  }

  executeValues(sql: string, params: ReadonlyArray<unknown>) {
    return this.run(
      { text: sql, values: params as Array<unknown>, rowMode: "array" },
      [],
      (result) => result.rows as ReadonlyArray<ReadonlyArray<unknown>>
    )
  }

  executeUnprepared(sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) {
    return this.execute(sql, params, transformRows)
  }

  executeStream(sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) {
    const client = this.client
    const open = Effect.acquireRelease(
      Effect.sync(() => client.query(new Cursor(sql, params as Array<unknown>))),
      (cursor) => Effect.async<void>((resume) => void cursor.close(() => resume(Effect.void)))
    )
    const pull = (cursor: Cursor) =>
      Effect.async<Chunk.Chunk<any>, Option.Option<SqlError.SqlError>>((resume) =>
        void cursor.read(128, (error, rows) => {
          if (error) resume(Effect.fail(Option.some(failure(error))))
          else if (rows.length === 0) resume(Effect.fail(Option.none()))
          else resume(Effect.succeed(Chunk.unsafeFromArray(transformRows ? transformRows(rows) : rows)))
        })
      )
    return Stream.unwrapScoped(Effect.map(open, (cursor) => Stream.repeatEffectChunkOption(pull(cursor))))
  }

  /** Marks the client as not to be reused, whatever state its session is in. */
  discard(cause: Error) {
    this.broken ??= cause
  }

  /** Gives the client back to the pool, or closes it if broken. */
  release() {
    this.client.off("error", this.onError)
    this.client.release(this.broken)
  }
}
