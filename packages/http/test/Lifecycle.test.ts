/**
 * The server's life as an operator sees it: started by `npm start` or as the bundle, stopped by a
 * signal, and its liveness and readiness while the database is away.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { fileURLToPath } from "node:url"
import { freshPgDatabase, freshSqliteFile, pgAdminUrl } from "../../../testing/databases.js"
import { call, exited, type ServerProcess, startProcess } from "../../../testing/processes.js"
import { Api, testServer } from "../../../testing/server.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))

const sqliteEnv = Effect.map(freshSqliteFile, (file) => ({ WMS_DATABASE_URL: `sqlite:${file}`, HOME: process.env.HOME ?? "/tmp" }))

/** Sends `signal` to the process a test started and waits for it to exit; yields its exit code. */
const stopWith = (server: ServerProcess, signal: NodeJS.Signals) =>
  Effect.gen(function*() {
    server.child.kill(signal)
    yield* exited(server.child).pipe(Effect.timeoutFail({ duration: "15 seconds", onTimeout: () => new Error(server.output()) }))
    return server.child.exitCode
  })

const expectClosed = (server: ServerProcess) =>
  Effect.gen(function*() {
    const health = yield* call(server, "GET", "/health")
    assert.strictEqual(health.status, 0, `still answering after the stop: ${JSON.stringify(health.body)}`)
    assert.match(String(health.body), /fetch failed/)
  })

describe("stopping the server", () => {
  it.scopedLive("npm start stops on SIGTERM: npm, its shell and the server exit and the port closes", () =>
    Effect.gen(function*() {
      const server = yield* startProcess({
        cwd: root,
        command: ["npm", "start", "--silent"],
        env: yield* sqliteEnv,
        health: { timeoutMillis: 120_000 }
      })
      assert.strictEqual((yield* call(server, "GET", "/ready")).status, 200)
      yield* stopWith(server, "SIGTERM")
      yield* expectClosed(server)
    }), { timeout: 180_000 })

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it.scopedLive(`the bundle exits with 0 on ${signal}`, () =>
      Effect.gen(function*() {
        const server = yield* startProcess({ env: yield* sqliteEnv })
        assert.strictEqual(yield* stopWith(server, signal), 0, server.output())
        yield* expectClosed(server)
      }), { timeout: 60_000 })
  }
})

/** Ends every connection to the database and refuses new ones: the database is away. */
const takeAway = (url: string) =>
  Effect.gen(function*() {
    const name = new URL(url).pathname.slice(1)
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
    yield* sql.unsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`)
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(pgAdminUrl), maxConnections: 1 })), Effect.orDie)

const bringBack = (url: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`ALTER DATABASE ${new URL(url).pathname.slice(1)} ALLOW_CONNECTIONS true`)
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(pgAdminUrl), maxConnections: 1 })), Effect.orDie)

class DatabaseUrl extends Context.Tag("test/DatabaseUrl")<DatabaseUrl, string>() {}

const serverAndDatabase = Layer.unwrapScoped(
  Effect.map(freshPgDatabase, (url) => Layer.merge(testServer(url), Layer.succeed(DatabaseUrl, url)))
)

layer(serverAndDatabase, { timeout: 60_000 })("liveness and readiness on postgres", (it) => {
  it.effect("/health and /ready answer 503 {status, message} while the database is away, 200 once it is back", () =>
    Effect.gen(function*() {
      const api = yield* Api
      const url = yield* DatabaseUrl
      assert.deepStrictEqual((yield* api.request("GET", "/health")).body, { status: "ok" })
      assert.deepStrictEqual((yield* api.request("GET", "/ready")).body, { status: "ready" })
      yield* takeAway(url)
      const health = yield* api.request("GET", "/health")
      assert.deepStrictEqual([health.status, health.body], [503, { status: "unavailable", message: "Database unavailable" }])
      const ready = yield* api.request("GET", "/ready")
      assert.deepStrictEqual([ready.status, ready.body], [503, { status: "unavailable", message: "Database unavailable" }])
      yield* bringBack(url)
      assert.strictEqual((yield* api.request("GET", "/health")).status, 200)
    }))
})
