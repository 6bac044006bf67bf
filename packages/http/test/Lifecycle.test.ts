/**
 * The server's life as an operator sees it: started by `npm start` or as the bundle, stopped by a
 * signal or unable to start, the line it logs on its way down, and its liveness and readiness while
 * the database is away.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { spawn } from "node:child_process"
import { type AddressInfo, createServer, type Server } from "node:net"
import { fileURLToPath } from "node:url"
import { freshPgDatabase, freshSqliteFile, pgAdminUrl } from "../../../testing/databases.js"
import { call, exited, type ServerProcess, startProcess } from "../../../testing/processes.js"
import { Api, testServer } from "../../../testing/server.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const bundle = fileURLToPath(new URL("../dist/server.bundle.js", import.meta.url))

const sqliteEnv = Effect.map(
  freshSqliteFile,
  (file) => ({ WMS_DATABASE_URL: `sqlite:${file}`, HOME: process.env.HOME ?? "/tmp" })
)

/** Sends `signal` to the process a test started and waits for it to exit; yields its exit code. */
const stopWith = (server: ServerProcess, signal: NodeJS.Signals) =>
  Effect.gen(function*() {
    server.child.kill(signal)
    yield* exited(server.child).pipe(
      Effect.timeoutFail({ duration: "15 seconds", onTimeout: () => new Error(server.output()) })
    )
    return server.child.exitCode
  })

/** The lines the server logged on its way down. */
const stoppingLines = (output: string) =>
  output.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line)).filter((line) =>
    String(line.message).startsWith("Stopping")
  )

/** Asserts one line on the way down, at `logLevel`, naming the signal or error that stopped the server. */
const expectStoppedOn = (output: string, reason: "SIGTERM" | "SIGINT") => {
  const lines = stoppingLines(output)
  assert.deepStrictEqual(
    lines.map(({ logLevel, message, annotations }) => ({ logLevel, message, annotations })),
    [{ logLevel: "INFO", message: `Stopping on ${reason}`, annotations: { reason } }],
    output
  )
}

const expectClosed = (server: ServerProcess) =>
  Effect.gen(function*() {
    const health = yield* call(server, "GET", "/health")
    assert.strictEqual(health.status, 0, `still answering after the stop: ${JSON.stringify(health.body)}`)
    assert.match(String(health.body), /fetch failed/)
  })

describe("stopping the server", () => {
  it.live(
    "npm start stops on SIGTERM: npm, its shell and the server exit and the port closes",
    () =>
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
        expectStoppedOn(server.output(), "SIGTERM")
      }).pipe(Effect.scoped),
    { timeout: 180_000 }
  )

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it.live(`the bundle logs the ${signal} and exits with 0`, () =>
      Effect.gen(function*() {
        const server = yield* startProcess({ env: yield* sqliteEnv })
        assert.strictEqual(yield* stopWith(server, signal), 0, server.output())
        yield* expectClosed(server)
        expectStoppedOn(server.output(), signal)
      }).pipe(Effect.scoped), { timeout: 60_000 })
  }

  it.live(
    "a server that cannot start logs its fatal error in one line and exits with 1",
    () =>
      Effect.gen(function*() {
        const taken = yield* Effect.acquireRelease(
          Effect.async<Server>((resume) => {
            const server = createServer()
            server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
          }),
          (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
        )
        const port = (taken.address() as AddressInfo).port
        const child = spawn(process.execPath, [bundle], {
          env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: String(port), ...(yield* sqliteEnv) },
          stdio: ["ignore", "pipe", "pipe"]
        })
        let output = ""
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
        yield* exited(child).pipe(Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error(output) }))
        assert.strictEqual(child.exitCode, 1, output)
        const lines = stoppingLines(output)
        assert.deepStrictEqual(
          lines.map(({ logLevel, message, annotations }) => ({ logLevel, message, annotations })),
          [{ logLevel: "ERROR", message: "Stopping on a fatal error", annotations: { reason: "fatal error" } }],
          output
        )
        assert.include(lines[0].cause, "EADDRINUSE")
      }).pipe(Effect.scoped),
    { timeout: 60_000 }
  )
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
      assert.deepStrictEqual([health.status, health.body], [503, {
        status: "unavailable",
        message: "Database unavailable"
      }])
      const ready = yield* api.request("GET", "/ready")
      assert.deepStrictEqual([ready.status, ready.body], [503, {
        status: "unavailable",
        message: "Database unavailable"
      }])
      yield* bringBack(url)
      assert.strictEqual((yield* api.request("GET", "/health")).status, 200)
    }))
})
