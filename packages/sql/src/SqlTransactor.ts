/**
 * The `Transactor` both stores share. The outermost `atomically` of a fiber takes what a transaction
 * of the store holds (SQLite's connection lock, a client of PostgreSQL's pool), begins, runs the
 * effect, commits or rolls back, and gives back what it took, whatever the end: success, failure,
 * defect or interruption. While it runs, the fiber carries the transaction's connection in its context
 * (`SqlClient.TransactionConnection`), so that `sql` templates and `Prepared` statements join it. An
 * `atomically` inside another, or inside `sql.withTransaction`, becomes a savepoint named as
 * @effect/sql names its own. SQL failures are defects, as everywhere behind the ports.
 *
 * Written by hand rather than with `SqlClient.makeWithTransaction`, which opens a span and a scope
 * and sets the context with `Effect.locally` for every transaction, on the path of every write
 * request: here the outermost transaction sets the fiber's context and puts it back once it has
 * ended. Savepoints, which are rare, keep `Effect.locally`.
 */
import { SqlClient, type SqlConnection } from "@effect/sql"
import { Transactor } from "@wms/core"
import { Cause, Context, Effect, Exit, FiberRef, Option } from "effect"

/** Lets an effect run in an uninterruptible region be interrupted. */
export type Restore = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

/** A store's transactions: what an outermost one holds (`Lease`), how it takes, begins, ends and gives it back. */
export interface Store<Lease> {
  /** Whether the fiber's open transaction, on `open`, is this store's: `atomically` then takes a savepoint. */
  readonly joins: (open: SqlConnection.Connection) => boolean
  /** Takes what an outermost transaction holds; `restore` lets a wait for it be interrupted. */
  readonly acquire: (restore: Restore) => Effect.Effect<Lease>
  /** The connection that the statements of the transaction on `lease` run on. */
  readonly connection: (lease: Lease) => SqlConnection.Connection
  /** Begins the transaction, then goes on with `body`; runs where the fiber cannot be interrupted, as `end` does. */
  readonly begin: <A, E, R>(lease: Lease, body: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Commits after a success or rolls back after a failure, then answers `exit`. */
  readonly end: <A, E>(lease: Lease, exit: Exit.Exit<A, E>) => Effect.Effect<A, E>
  /** Gives back what `acquire` took, once the transaction has ended or failed to begin. */
  readonly release: (lease: Lease) => Effect.Effect<unknown>
  /**
   * Whether a defect of an outermost transaction is one the database resolves by running it again
   * from the start, such as PostgreSQL's deadlock and serialization failures: it rolled the whole
   * transaction back, so nothing of the first run is left.
   */
  readonly isTransient?: (defect: unknown) => boolean
}

/** How often an outermost transaction runs again after a transient failure before its defect stands. */
const transientRetries = 4

/** Sets the fiber's context, then goes on with `effect`. */
const withContext = <A, E, R>(context: Context.Context<never>, effect: Effect.Effect<A, E, R>) =>
  Effect.zipRight(FiberRef.set(FiberRef.currentContext, context), effect)

const statement = (connection: SqlConnection.Connection, text: string) =>
  Effect.orDie(connection.executeUnprepared(text, [], undefined))

export const make = <Lease>(store: Store<Lease>): Transactor["Type"] => {
  const outermost = <A, E, R>(
    effect: Effect.Effect<A, E, R>,
    restore: Restore,
    context: Context.Context<never>
  ): Effect.Effect<A, E, R> =>
    Effect.flatMap(store.acquire(restore), (lease) => {
      const inTransaction = Context.add(context, SqlClient.TransactionConnection, [store.connection(lease), 0] as const)
      // The whole of it runs uninterruptible (`atomically`'s mask) but the effect itself, so the
      // lease goes back on every end of `begin`, the effect and `end` without `Effect.ensuring`,
      // which costs a request several steps more than matching the exit once.
      return Effect.flatMap(
        Effect.exit(store.begin(
          lease,
          Effect.flatMap(
            Effect.exit(withContext(inTransaction, restore(effect))),
            (exit) => store.end(lease, exit)
          )
        )),
        (exit) => withContext(context, Effect.zipRight(store.release(lease), exit))
      )
    })

  const nested = <A, E, R>(
    effect: Effect.Effect<A, E, R>,
    restore: Restore,
    context: Context.Context<never>,
    [connection, outerDepth]: readonly [SqlConnection.Connection, number]
  ): Effect.Effect<A, E, R> => {
    const depth = outerDepth + 1
    const name = `effect_sql_${depth}`
    return Effect.zipRight(
      statement(connection, `SAVEPOINT ${name}`),
      Effect.locally(
        restore(effect),
        FiberRef.currentContext,
        Context.add(context, SqlClient.TransactionConnection, [connection, depth] as const)
      ).pipe(
        Effect.exit,
        Effect.tap((exit) =>
          Exit.isSuccess(exit) ? Effect.void : statement(connection, `ROLLBACK TO SAVEPOINT ${name}`)
        ),
        Effect.flatten
      )
    )
  }

  const isTransient = store.isTransient
  // A statement's failure is a defect behind the ports, and a failure where `sql` is used directly.
  const failedTransiently = (cause: Cause.Cause<unknown>) =>
    isTransient !== undefined &&
    (Option.exists(Cause.dieOption(cause), isTransient) || Option.exists(Cause.failureOption(cause), isTransient))
  // Runs the outermost transaction again, after a short random pause that parts the two runs which
  // met, while it fails for a reason the database resolves that way.
  const outermostRetried = <A, E, R>(
    effect: Effect.Effect<A, E, R>,
    restore: Restore,
    context: Context.Context<never>,
    retriesLeft: number
  ): Effect.Effect<A, E, R> =>
    isTransient === undefined ? outermost(effect, restore, context) : Effect.catchAllCause(
      outermost(effect, restore, context),
      (cause) =>
        retriesLeft > 0 && failedTransiently(cause)
          ? Effect.zipRight(
            restore(Effect.sleep(Math.floor(Math.random() * 20 * (transientRetries - retriesLeft + 1)))),
            outermostRetried(effect, restore, context, retriesLeft - 1)
          )
          : Effect.failCause(cause)
    )

  return Transactor.of({
    atomically: (effect) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.withFiberRuntime((fiber) => {
          const context = fiber.currentContext as Context.Context<never>
          const open = Context.getOption(context, SqlClient.TransactionConnection)
          return open._tag === "Some" && store.joins(open.value[0])
            ? nested(effect, restore, context, open.value)
            : outermostRetried(effect, restore, context, transientRetries)
        })
      )
  })
}
