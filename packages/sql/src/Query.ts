/**
 * Statements run behind a port: their result in the shape the port answers, and a store failure as
 * a defect, since the ports' methods have no error channel. Each helper is the `Effect.map` and
 * `Effect.orDie` it stands for and no more, so that a repository method reads as its SQL: both in one
 * step of the fiber (`resultOf`), since the statements of the hot requests each pass through one.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import { Effect, Option } from "effect"

/** A statement's rows, or a store failure. */
export type Rows<Row> = Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>

/**
 * `Effect.orDie(Effect.map(effect, f))` as one step: `map` and `orDie` each add a step (and `map`
 * a second to run `f`), where matching the result once does both. A throw of `f` is a defect either way.
 */
const resultOf = <A, B>(effect: Effect.Effect<A, SqlError.SqlError>, f: (result: A) => B): Effect.Effect<B> =>
  Effect.matchEffect(effect, { onFailure: Effect.die, onSuccess: (result) => Effect.succeed(f(result)) })

/** The result of `effect` (one statement or several), through `f`. */
export const query: {
  <A>(effect: Effect.Effect<A, SqlError.SqlError>): Effect.Effect<A>
  <A, B>(effect: Effect.Effect<A, SqlError.SqlError>, f: (result: A) => B): Effect.Effect<B>
} = (effect: Effect.Effect<unknown, SqlError.SqlError>, f?: (result: any) => unknown) =>
  f === undefined ? Effect.orDie(effect) : resultOf(effect, f)

/** Every row of `statement`, each through `f`. */
export const rows: {
  <Row>(statement: Rows<Row>): Effect.Effect<ReadonlyArray<Row>>
  <Row, A>(statement: Rows<Row>, f: (row: Row) => A): Effect.Effect<ReadonlyArray<A>>
} = (statement: Rows<any>, f?: (row: any) => unknown) =>
  f === undefined ? Effect.orDie(statement) : resultOf(statement, (rows) => rows.map(f))

/** The first row of `statement`, through `f`, if it has one. */
export const first: {
  <Row>(statement: Rows<Row>): Effect.Effect<Option.Option<Row>>
  <Row, A>(statement: Rows<Row>, f: (row: Row) => A): Effect.Effect<Option.Option<A>>
} = (statement: Rows<any>, f?: (row: any) => unknown) =>
  resultOf(
    statement,
    f === undefined ? (rows) => Option.fromNullable(rows[0]) : (rows) => Option.map(Option.fromNullable(rows[0]), f)
  )

/** Whether `statement` answered a row: an `UPDATE … RETURNING` that matched one, a `SELECT 1` that found one. */
export const returnsRow = (statement: Rows<unknown>): Effect.Effect<boolean> =>
  resultOf(statement, (rows) => rows.length > 0)

/** Runs `effect` (one statement or several) for what it writes. */
export const run = (effect: Effect.Effect<unknown, SqlError.SqlError>): Effect.Effect<void> =>
  resultOf(effect, () => undefined)

/** Inserts `row` into `table` and answers the key the database gave it (`RETURNING`, which both dialects have). */
export const insertReturningKey = (
  sql: SqlClient.SqlClient,
  table: string,
  row: Record<string, unknown>,
  key = "id"
): Effect.Effect<number> =>
  resultOf(
    sql<Record<string, number>>`INSERT INTO ${sql(table)} ${sql.insert(row)} RETURNING ${sql(key)}`,
    (rows) => rows[0][key]
  )
