import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import { call as callProcess, exited, type ServerProcess, startServer } from "../../../testing/processes.js"
import { adminEmail, adminPassword } from "../../../testing/server.js"
import { deliveredOrder, eventually, outOfOrder, receiver } from "./WebhooksReceiver.js"

/** A request to the server process, on site `main` when it carries a token. */
const call = (
  server: ServerProcess,
  method: "POST",
  path: string,
  options: { readonly token?: string; readonly body?: unknown } = {}
) => callProcess(server, method, path, { ...options, site: options.token === undefined ? undefined : "main" })

// The receiver listens on loopback.
const allowLoopback = { WMS_WEBHOOK_ALLOW_PRIVATE: "true" }

const expect204 = (response: { status: number; body: unknown }, what: string) =>
  response.status === 204
    ? Effect.void
    : Effect.dieMessage(`${what}: ${response.status} ${JSON.stringify(response.body)}`)

/**
 * Events are raised while the receiver answers 500; the server is killed with SIGKILL while its
 * retry of the first event hangs on the receiver (so its lease is left behind); two new servers
 * on the database take over once the lease runs out, and every event arrives in order, each
 * answered 200 exactly once.
 */
const crashAndRecover = (label: string, databaseUrl: string) =>
  Effect.gen(function*() {
    const hook = yield* receiver(() => 500)
    const first = yield* startServer(databaseUrl, allowLoopback)
    const login = yield* call(first, "POST", "/login", { body: { email: adminEmail, password: adminPassword } })
    const token = (login.body as { token: string }).token
    yield* expect204(
      yield* call(first, "POST", "/webhooks", {
        token,
        body: { event_type: "preadvice_received", url: hook.url, secret: "crash" }
      }),
      "POST /webhooks"
    )
    const preAdvices = ["PA-C1", "PA-C2", "PA-C3"]
    for (const [index, id] of preAdvices.entries()) {
      const sku = `SKU-C${index}`
      yield* expect204(yield* call(first, "POST", "/skus", { token, body: { sku_id: sku, description: sku } }), "sku")
      yield* expect204(
        yield* call(first, "POST", "/preadvices", {
          token,
          body: { pre_advice_id: id, lines: [{ sku_id: sku, qty: 1 }] }
        }),
        "pre-advice"
      )
      yield* expect204(yield* call(first, "POST", `/preadvices/${id}/receive`, { token, body: {} }), "receive")
    }
    yield* eventually(() => hook.received().length >= 1, () => `${label}: no first attempt`)
    hook.answerWith(() => "timeout")
    // The first retry comes 5 s after the 500; it hangs, and the server dies in the middle of it.
    yield* eventually(() => hook.received().some((r) => r.answer === "timeout"), () => `${label}: no retry`, 30_000)
    first.child.kill("SIGKILL")
    yield* exited(first.child)
    hook.answerWith(() => 200)
    yield* Effect.all([startServer(databaseUrl, allowLoopback), startServer(databaseUrl, allowLoopback)], {
      concurrency: 2
    })
    yield* eventually(
      () => deliveredOrder(hook.received()).length === preAdvices.length,
      () => `${label}: ${JSON.stringify(hook.received().map((r) => [r.eventId, r.answer]))}`,
      60_000
    )
    // Let any duplicate attempt show up before counting.
    yield* Effect.sleep("1 second")
    const received = hook.received()
    const eventIds = deliveredOrder(received)
    assert.deepStrictEqual(eventIds, [...eventIds].sort((a, b) => a - b), label)
    assert.deepStrictEqual(outOfOrder(received, eventIds), [], label)
    const delivered = received.filter((r) => r.answer === 200)
    assert.deepStrictEqual(delivered.map((r) => JSON.parse(r.body).data.pre_advice_id), preAdvices, label)
    assert.strictEqual(new Set(received.map((r) => r.headers["webhook-id"])).size, preAdvices.length, label)
  }).pipe(Effect.scoped)

it.live(
  "a server killed with deliveries pending loses none: after a restart every event arrives, in order",
  () =>
    Effect.all([
      Effect.flatMap(freshSqliteFile, (file) => crashAndRecover("sqlite", `sqlite:${file}`)),
      Effect.flatMap(freshPgDatabase, (url) => crashAndRecover("postgres", url))
    ], { concurrency: "unbounded" }).pipe(Effect.scoped),
  // Three server starts per store and a retry's back-off: 124 s on a loaded machine (load 17).
  { timeout: 240_000 }
)
