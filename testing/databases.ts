/**
 * Throw-away databases for tests: a fresh SQLite file or a fresh PostgreSQL database per use, so
 * that test files and concurrent runs never share state. PostgreSQL is reached on loopback only.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The maintenance database the test databases are created from. */
export const pgAdminUrl = process.env.WMS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** `<prefix>_<pid>_<ms>_<random>`: the process that made it and when, for `dropStaleDatabases`. */
const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e9)}`

/** How long a database outlives its process before it is stale: a grace for a pid read as gone too soon. */
const orphanedAfterMillis = 15 * 60 * 1000

/** How old a database is stale at, whatever its process: no test holds one for hours. */
const staleAfterMillis = 6 * 60 * 60 * 1000

/** Whether process `pid` runs on this machine (PostgreSQL is on loopback: its test databases are this machine's). */
const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Whether the test database `name` was left by a run that is over (interrupted before its scope
 * closed): its process gone for a while, or made hours ago. Other runs, several at once on one
 * machine, keep theirs.
 */
export const isStaleDatabase = (name: string, now: number, running: (pid: number) => boolean = isRunning) => {
  const parts = /^wms_test_(\d+)_(\d+)_\d+$/.exec(name)
  if (parts === null) return false
  const age = now - Number(parts[2])
  return age > staleAfterMillis || (age > orphanedAfterMillis && !running(Number(parts[1])))
}

/** Drops the stale test databases (`isStaleDatabase`); yields their names. */
export const dropStaleDatabases = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const names = yield* sql<{ datname: string }>`SELECT datname FROM pg_database WHERE datname LIKE 'wms_test_%'`
  const now = Date.now()
  const stale = names.map((row) => row.datname).filter((name) => isStaleDatabase(name, now))
  for (const name of stale) yield* sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  return stale
}).pipe(
  Effect.provide(PgClient.layer({ url: Redacted.make(pgAdminUrl), maxConnections: 1 })),
  Effect.orDie
)

const onAdmin = (statement: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(statement)
  }).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(pgAdminUrl), maxConnections: 1 })),
    Effect.orDie
  )

const makePgDatabase = (options: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const name = uniqueName("wms_test")
      yield* onAdmin(`CREATE DATABASE ${name}${options}`)
      const url = new URL(pgAdminUrl)
      url.pathname = `/${name}`
      return url.toString()
    }),
    (url) => onAdmin(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`)
  )

/** A new, empty PostgreSQL database, dropped when the scope closes. Yields its URL. */
export const freshPgDatabase = makePgDatabase("")

/**
 * A new, empty PostgreSQL database whose text sorts by a language's rules (ICU's `en-US`: `a`
 * before `B`), as on a server set up in a language's locale, where SQLite sorts by bytes (`B`
 * before `a`). Needs PostgreSQL 15 or later.
 */
export const freshLinguisticPgDatabase = makePgDatabase(
  " TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'"
)

/** A path for a new SQLite file in a temporary folder, removed when the scope closes. */
export const freshSqliteFile = Effect.acquireRelease(
  Effect.sync(() => join(mkdtempSync(join(tmpdir(), "wms-test-")), "wms.db")),
  (file) => Effect.sync(() => rmSync(join(file, ".."), { recursive: true, force: true }))
)

/** A fresh database of a kind. */
export type TestDatabase =
  | { readonly kind: "sqlite"; readonly filename: string }
  | { readonly kind: "pg"; readonly url: string }

/** Builds a layer from a fresh database of each kind: `[label, layer]` pairs for `it.layer`. */
export const onBothStores = <A, E, R>(make: (database: TestDatabase) => Layer.Layer<A, E, R>) =>
  [
    ["sqlite", Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => make({ kind: "sqlite", filename })))],
    ["postgres", Layer.unwrapScoped(Effect.map(freshPgDatabase, (url) => make({ kind: "pg", url })))]
  ] as const

/**
 * The API tests run on SQLite alone unless `WMS_TEST_STORES=both`: the storage contract suite
 * proves the stores alike below the API, and the two-store smoke (`packages/http/test/StoresSmoke.test.ts`)
 * proves the server on each.
 */
export const apiTestsOnBothStores = process.env.WMS_TEST_STORES === "both"

/** `onBothStores` for tests of what the API does whatever its store: SQLite, or both with `WMS_TEST_STORES=both`. */
export const onApiTestStores = <A, E, R>(make: (database: TestDatabase) => Layer.Layer<A, E, R>) => {
  const stores = onBothStores(make)
  return apiTestsOnBothStores ? stores : stores.slice(0, 1)
}
