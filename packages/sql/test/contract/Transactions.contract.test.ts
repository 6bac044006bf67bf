/**
 * The contract of the stores' `Transactor` and `Prepared` statements on both stores: one
 * transaction per outermost `atomically`, savepoints inside, everything undone by a failure, a
 * defect or an interruption; prepared statements that join the transaction of their fiber. What
 * only one store does lives in its own tests (packages/sql-sqlite/test, packages/sql-pg/test).
 */
import { SqlClient, SqlError } from "@effect/sql"
import { assert, describe, it as plainIt } from "@effect/vitest"
import { OrderRepository, Site, SiteId, SiteRepository, Transactor } from "@wms/core"
import { Prepared } from "@wms/sql"
import { PgStore } from "@wms/sql-pg"
import { SqliteStore } from "@wms/sql-sqlite"
import { Deferred, Effect, Fiber, Layer, Option } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../../testing/databases.js"
import { assertDies, fresh, onEachStore } from "./Contract.js"

/** A scratch table of notes by topic, written with templates and with prepared statements. */
const notes = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { prepare } = yield* Prepared.Prepared
  const key = sql.onDialectOrElse({ pg: () => "SERIAL PRIMARY KEY", orElse: () => "INTEGER PRIMARY KEY AUTOINCREMENT" })
  yield* sql`CREATE TABLE IF NOT EXISTS notes (id ${sql.literal(key)}, topic TEXT NOT NULL, body TEXT NOT NULL)`
  const bodiesOf = prepare<{ body: string }>("SELECT body FROM notes WHERE topic = ? ORDER BY id")
  return {
    add: (topic: string, body: string) =>
      sql`INSERT INTO notes (topic, body) VALUES (${topic}, ${body})`.pipe(Effect.orDie),
    addPrepared: prepare<never>("INSERT INTO notes (topic, body) VALUES (?, ?)"),
    addReturning: prepare<{ id: number }>("INSERT INTO notes (topic, body) VALUES (?, ?) RETURNING id"),
    of: (topic: string) => Effect.map(Effect.orDie(bodiesOf([topic])), (rows) => rows.map((row) => row.body)),
    ofByTemplate: (topic: string) =>
      Effect.map(
        sql<{ body: string }>`SELECT body FROM notes WHERE topic = ${topic} ORDER BY id`.pipe(Effect.orDie),
        (rows) => rows.map((row) => row.body)
      )
  }
})

const inTransaction = Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), Option.isSome)

onEachStore("transactions", (it) => {
  describe("Transactor", () => {
    it.effect("commits a success and undoes a failure or a defect, of templates, prepared statements and ports", () =>
      Effect.gen(function*() {
        const { add, addPrepared, of } = yield* notes
        const { atomically } = yield* Transactor
        const sites = yield* SiteRepository
        const topic = fresh("outcome")
        yield* atomically(Effect.all([add(topic, "template"), Effect.orDie(addPrepared([topic, "prepared"]))]))
        const writeAll = (body: string) =>
          Effect.all([
            add(topic, body),
            Effect.orDie(addPrepared([topic, body])),
            sites.insertSite(
              new Site({
                site_id: SiteId.make(`${topic}-${body}`),
                name: body,
                fulfillment: false
              })
            )
          ])
        assert.strictEqual(yield* Effect.flip(atomically(Effect.zipRight(writeAll("failed"), Effect.fail("no")))), "no")
        yield* assertDies(atomically(Effect.zipRight(writeAll("died"), Effect.die("boom"))))
        assert.deepStrictEqual(yield* of(topic), ["template", "prepared"])
        assert.isTrue(Option.isNone(yield* sites.findSite(SiteId.make(`${topic}-failed`))))
        assert.isTrue(Option.isNone(yield* sites.findSite(SiteId.make(`${topic}-died`))))
      }))

    it.effect("passes the effect's own failures through as they are, a SqlError included", () =>
      Effect.gen(function*() {
        const { addPrepared, of } = yield* notes
        const { atomically } = yield* Transactor
        const sql = yield* SqlClient.SqlClient
        const topic = fresh("failures")
        const error = yield* Effect.flip(atomically(Effect.zipRight(
          addPrepared([topic, "undone"]),
          sql`INSERT INTO nowhere (id) VALUES (1)`
        )))
        assert.instanceOf(error, SqlError.SqlError)
        assert.deepStrictEqual(yield* of(topic), [])
        // The store is fine afterwards.
        yield* atomically(addPrepared([topic, "kept"]))
        assert.deepStrictEqual(yield* of(topic), ["kept"])
      }))

    it.effect("makes an inner atomically or sql.withTransaction a savepoint: its failure undoes its writes only", () =>
      Effect.gen(function*() {
        const { add, addPrepared, of } = yield* notes
        const sql = yield* SqlClient.SqlClient
        const { atomically } = yield* Transactor
        const topic = fresh("nested")
        yield* atomically(Effect.gen(function*() {
          yield* add(topic, "outer")
          const inner = atomically(Effect.zipRight(addPrepared([topic, "inner"]), Effect.fail("no")))
          assert.strictEqual(yield* Effect.flip(inner), "no")
          assert.deepStrictEqual(yield* of(topic), ["outer"])
          yield* atomically(atomically(addPrepared([topic, "second inner"])))
          yield* Effect.ignore(sql.withTransaction(Effect.zipRight(add(topic, "template undone"), Effect.fail("no"))))
          yield* sql.withTransaction(add(topic, "template"))
        }))
        assert.deepStrictEqual(yield* of(topic), ["outer", "second inner", "template"])

        // An inner failure the outer one lets through undoes everything.
        const all = fresh("nested")
        const inner = atomically(Effect.zipRight(add(all, "inner"), Effect.fail("no")))
        yield* Effect.ignore(atomically(Effect.zipRight(add(all, "outer"), inner)))
        assert.deepStrictEqual(yield* of(all), [])
      }))

    it.effect("undoes an interrupted transaction and frees the store for the next", () =>
      Effect.gen(function*() {
        const { add, of } = yield* notes
        const { atomically } = yield* Transactor
        const topic = fresh("interrupted")
        const written = yield* Deferred.make<void>()
        const fiber = yield* Effect.fork(atomically(Effect.gen(function*() {
          yield* add(topic, "written")
          yield* Deferred.succeed(written, undefined)
          return yield* Effect.never
        })))
        yield* Deferred.await(written)
        yield* Fiber.interrupt(fiber)
        yield* atomically(add(topic, "next"))
        assert.deepStrictEqual(yield* of(topic), ["next"])
      }))

    it.effect("gives the fiber its context back after a transaction, whatever its end", () =>
      Effect.gen(function*() {
        const { add, of } = yield* notes
        const { atomically } = yield* Transactor
        assert.isTrue(yield* atomically(inTransaction))
        assert.isFalse(yield* inTransaction)
        yield* Effect.ignore(atomically(Effect.zipRight(inTransaction, Effect.fail("no"))))
        assert.isFalse(yield* inTransaction)
        yield* Effect.exit(atomically(Effect.die("boom")))
        assert.isFalse(yield* inTransaction)
        // A statement after the transaction runs on its own, not in a transaction left behind.
        const topic = fresh("after")
        yield* add(topic, "written")
        assert.deepStrictEqual(yield* of(topic), ["written"])
      }))

    it.effect("never lets a statement outside a transaction see another's writes half done", () =>
      Effect.gen(function*() {
        const { add, of, ofByTemplate } = yield* notes
        const { atomically } = yield* Transactor
        const topic = fresh("pending")
        const written = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const writer = yield* Effect.fork(atomically(Effect.gen(function*() {
          yield* add(topic, "first")
          yield* Deferred.succeed(written, undefined)
          yield* Deferred.await(release)
          yield* add(topic, "second")
        })))
        yield* Deferred.await(written)
        // Either before the writer's transaction or after it, as the store runs them.
        const readers = yield* Effect.fork(Effect.all([of(topic), ofByTemplate(topic)], { concurrency: "unbounded" }))
        yield* Effect.sleep("50 millis")
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(writer)
        for (const seen of yield* Fiber.join(readers)) {
          assert.isTrue(seen.length === 0 || (seen.length === 2 && seen[1] === "second"), JSON.stringify(seen))
        }
      }))
  })

  describe("Prepared", () => {
    it.effect("yields a reader's rows, with the values a template gives, and none for a write without RETURNING", () =>
      Effect.gen(function*() {
        const { addPrepared, addReturning, of } = yield* notes
        const { prepare } = yield* Prepared.Prepared
        const sql = yield* SqlClient.SqlClient
        const topic = fresh("rows")
        assert.deepStrictEqual(yield* addPrepared([topic, "a"]), [])
        const [row] = yield* addReturning([topic, "b"])
        assert.strictEqual(typeof row.id, "number")
        assert.deepStrictEqual(yield* of(topic), ["a", "b"])

        const byPrepared = yield* prepare<Record<string, unknown>>(`SELECT CAST(? AS INTEGER) AS i,
          CAST(2147483647 AS INTEGER) AS max, CAST(-7 AS INTEGER) AS negative, 'x' AS t, '' AS empty,
          CAST(NULL AS TEXT) AS z, CAST(? AS TEXT) AS p FROM notes WHERE topic = ?`)([7, "ü", topic])
        const byTemplate = yield* sql<Record<string, unknown>>`SELECT CAST(${7} AS INTEGER) AS i,
          CAST(2147483647 AS INTEGER) AS max, CAST(-7 AS INTEGER) AS negative, 'x' AS t, '' AS empty,
          CAST(NULL AS TEXT) AS z, CAST(${"ü"} AS TEXT) AS p FROM notes WHERE topic = ${topic}`
        assert.deepStrictEqual(byPrepared, byTemplate)
        const values = { i: 7, max: 2147483647, negative: -7, t: "x", empty: "", z: null, p: "ü" }
        assert.deepStrictEqual(byPrepared[0], values)
      }))

    it.effect("runs in the fiber's transaction: its writes are seen there, by templates too, and undone with it", () =>
      Effect.gen(function*() {
        const { add, addPrepared, of, ofByTemplate } = yield* notes
        const { atomically } = yield* Transactor
        const topic = fresh("rollback")
        const failure = yield* atomically(Effect.gen(function*() {
          yield* addPrepared([topic, "prepared"])
          yield* add(topic, "template")
          assert.deepStrictEqual(yield* of(topic), ["prepared", "template"])
          assert.deepStrictEqual(yield* ofByTemplate(topic), ["prepared", "template"])
          return yield* Effect.fail("boom" as const)
        })).pipe(Effect.flip)
        assert.strictEqual(failure, "boom")
        assert.deepStrictEqual(yield* of(topic), [])

        yield* atomically(addPrepared([topic, "kept"]))
        assert.deepStrictEqual(yield* ofByTemplate(topic), ["kept"])
      }))

    it.effect("runs inside a transaction of sql.withTransaction, on its connection", () =>
      Effect.gen(function*() {
        const { addPrepared, of } = yield* notes
        const sql = yield* SqlClient.SqlClient
        const topic = fresh("withTransaction")
        const failure = yield* Effect.flip(sql.withTransaction(Effect.gen(function*() {
          yield* addPrepared([topic, "one"])
          assert.deepStrictEqual(yield* of(topic), ["one"])
          return yield* Effect.fail("boom")
        })))
        assert.strictEqual(failure, "boom")
        assert.deepStrictEqual(yield* of(topic), [])
      }))

    it.effect("fails with a SqlError, which the ports turn into a defect", () =>
      Effect.gen(function*() {
        const { addPrepared } = yield* notes
        const { prepare } = yield* Prepared.Prepared
        const unknownTable = yield* prepare("SELECT * FROM nowhere WHERE id = ?")([1]).pipe(Effect.flip)
        assert.instanceOf(unknownTable, SqlError.SqlError)
        const nullBody = yield* addPrepared(["errors", null]).pipe(Effect.flip)
        assert.instanceOf(nullBody, SqlError.SqlError)
        // A port's prepared statement: the foreign key refuses a line of no order.
        const orders = yield* OrderRepository
        yield* assertDies(orders.insertLines(999_999, [{ line: 1, sku_id: "A", qty: 1 }]))
      }))
  })
})

describe("two stores in one process", () => {
  plainIt.effect("never share a repository, even when built with one memo map", () =>
    Effect.gen(function*() {
      const memoMap = yield* Layer.makeMemoMap
      const scope = yield* Effect.scope
      const stores = [
        Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => SqliteStore.layer({ filename }))),
        Layer.unwrapScoped(Effect.map(freshPgDatabase, (url) => PgStore.layer({ url })))
      ]
      for (const store of stores) {
        const context = yield* Layer.buildWithMemoMap(store, memoMap, scope)
        const inserted = yield* Effect.flatMap(SiteRepository, (sites) =>
          Transactor.pipe(Effect.flatMap(({ atomically }) =>
            atomically(sites.insertSite(
              new Site({ site_id: SiteId.make("shared"), name: "Shared", fulfillment: false })
            ))
          ))).pipe(Effect.provide(context))
        assert.isTrue(inserted)
      }
    }).pipe(Effect.scoped))
})
