/**
 * What the multi-process storms share: the servers on one database with an admin's requests to
 * them, a seeded generator, a tally of the statuses answered, a direct connection to the database
 * (to check it afterwards), and the servers' logged failures for a report.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { assert } from "@effect/vitest"
import { SqliteStore } from "@wms/sql-sqlite"
import { Effect, Layer, Redacted } from "effect"
import { call, type CallResult, type ServerProcess, startServer } from "./processes.js"
import { adminEmail, adminPassword } from "./server.js"

/** The database a storm's servers share. */
export type StormDatabase = { kind: "pg"; url: string } | { kind: "sqlite"; filename: string }

/** A small seeded generator, so a failing run's choices can be told apart by its seed. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** An `SqlClient` on the storm's database, to read what the servers left. */
export const storeSql = (database: StormDatabase) =>
  database.kind === "pg"
    ? Layer.orDie(PgClient.layer({ url: Redacted.make(database.url), maxConnections: 2 }))
    : SqliteStore.layer({ filename: database.filename })

/**
 * PostgreSQL's own count of the deadlocks it resolved on the storm's database, read once the
 * servers' sessions have ended: a session reports its counts when it ends, or after a pause.
 */
export const deadlocksOn = (database: StormDatabase & { kind: "pg" }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (let waited = 0; waited < 100; waited++) {
      const [others] = yield* sql<{ sessions: number }>`
        SELECT count(*)::int AS sessions FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`
      if (others.sessions === 0) break
      yield* Effect.sleep("100 millis")
    }
    const [counted] = yield* sql<{ deadlocks: number }>`
      SELECT deadlocks::int AS deadlocks FROM pg_stat_database WHERE datname = current_database()`
    return counted.deadlocks
  }).pipe(Effect.provide(storeSql(database)), Effect.orDie)

/** The servers' logged failures, for the report of an unexpected status. */
export const failuresLogged = (servers: ReadonlyArray<ServerProcess>) =>
  servers.flatMap((server, i) =>
    server.output().split(/\n(?=\[)/).filter((entry) => entry.includes("ERROR")).map((entry) =>
      `process ${i}: ${entry}`
    )
  ).join("\n").slice(0, 20_000)

/** Asserts that a request of a storm's set-up answered `status`. */
export const must = (status: number, result: CallResult, what: string) =>
  assert.strictEqual(result.status, status, `${what}: ${JSON.stringify(result.body)}`)

/**
 * A storm's start: `processes` bundled servers on its database, an admin's requests to them on
 * `site` unless a request names another (half their POSTs with an `Idempotency-Key`), seeded choices (the seed from `WMS_TEST_SEED`,
 * else the clock), and `record`, which tallies what each kind of request answered and keeps every
 * status `allowed` does not document for it. Any answer of 500 or more is kept, recorded or not.
 */
export const startStorm = (
  database: StormDatabase,
  options: {
    readonly processes: number
    readonly site: string
    readonly allowed: Readonly<Record<string, ReadonlyArray<number>>>
  }
) =>
  Effect.gen(function*() {
    const databaseUrl = database.kind === "pg" ? database.url : `sqlite:${database.filename}`
    // Added before the servers start, so that it runs once they have stopped.
    if (database.kind === "pg") {
      yield* Effect.addFinalizer(() =>
        Effect.flatMap(deadlocksOn(database), (deadlocks) => Effect.logInfo(`PostgreSQL deadlocks: ${deadlocks}`))
      )
    }
    // The first process migrates and bootstraps an empty database; the others start on a ready one.
    const first = yield* startServer(databaseUrl)
    const others = yield* Effect.all(
      Array.from({ length: options.processes - 1 }, () => startServer(databaseUrl)),
      { concurrency: "unbounded" }
    )
    const servers: ReadonlyArray<ServerProcess> = [first, ...others]
    const seed = Number(process.env.WMS_TEST_SEED ?? Date.now() % 1_000_000)
    const next = random(seed)
    const pick = <A>(items: ReadonlyArray<A>) => items[Math.floor(next() * items.length)]

    const login = yield* call(first, "POST", "/login", { body: { email: adminEmail, password: adminPassword } })
    assert.strictEqual(login.status, 200, JSON.stringify(login.body))
    const token = login.body.token as string
    const unexpected: Array<string> = []
    // Half the writes carry an `Idempotency-Key` of their own, so a keyed write meets every race a
    // storm makes; `key` names it instead.
    let keys = 0
    const request = (
      server: ServerProcess,
      method: "GET" | "POST" | "PUT" | "DELETE",
      path: string,
      body?: unknown,
      key?: string,
      site = options.site
    ) => {
      const keyed = key ?? (method === "POST" && next() < 0.5 ? `storm-${seed}-${keys++}` : undefined)
      return Effect.tap(
        call(server, method, path, {
          token,
          site,
          body,
          headers: keyed === undefined ? {} : { "idempotency-key": keyed }
        }),
        // No request of a storm, recorded or not, may answer 500 or more.
        (result) => {
          if (result.status >= 500) {
            unexpected.push(
              `${method} ${path}${keyed === undefined ? "" : " (keyed)"} → ${result.status} ${
                JSON.stringify(result.body)
              }`
            )
          }
        }
      )
    }

    const tally = new Map<string, number>()
    const record = (kind: string, server: number, what: string, result: CallResult) => {
      tally.set(`${kind} ${result.status}`, (tally.get(`${kind} ${result.status}`) ?? 0) + 1)
      if (!options.allowed[kind].includes(result.status) && result.status < 500) {
        unexpected.push(`process ${server}: ${what} → ${result.status} ${JSON.stringify(result.body)}`)
      }
      return result
    }
    /** The seed and the tally, to name a failing run. */
    const summary = () => `seed ${seed}; ${JSON.stringify(Object.fromEntries(tally))}`
    /**
     * Whether a client of the storm goes on to its action `n` (counted from 0): up to `actions`,
     * ended early by the storm's duration, `millis` from now, only once every answer in `needed`
     * (e.g. `"start 200"`) was tallied. On a loaded machine a storm thus still makes the races its
     * test asserts it made, instead of running out of time before them.
     */
    const lasting = (
      options: { readonly actions: number; readonly millis: number; readonly needed: ReadonlyArray<string> }
    ) => {
      const deadline = Date.now() + options.millis
      return (n: number) =>
        n < options.actions &&
        (Date.now() < deadline || options.needed.some((answer) => (tally.get(answer) ?? 0) === 0))
    }
    return { servers, first, next, pick, request, record, tally, unexpected, summary, lasting }
  })

/** A started storm. */
export type Storm = Effect.Effect.Success<ReturnType<typeof startStorm>>

/**
 * Asserts the end of a storm: no request answered a status its documentation does not allow,
 * the database shows no violation (`problems`), and every server process still runs.
 */
export const assertStormHeld = (storm: Storm, problems: ReadonlyArray<string>, summary = storm.summary()) => {
  assert.deepStrictEqual(storm.unexpected, [], `${summary}\n${failuresLogged(storm.servers)}`)
  assert.deepStrictEqual(problems, [], summary)
  for (const [i, server] of storm.servers.entries()) {
    assert.strictEqual(server.child.exitCode, null, `process ${i} exited:\n${server.output()}`)
  }
}
