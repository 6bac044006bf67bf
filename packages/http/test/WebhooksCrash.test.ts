import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import { adminEmail, adminPassword, jwtSecret } from "../../../testing/server.js"
import { deliveredOrder, eventually, outOfOrder, receiver } from "./WebhooksReceiver.js"

// The bundled server as built by `tsc -b`, run with the production delivery policy.
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

const exited = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
  })

/** A server process on the database, killed with SIGKILL when the scope closes (or earlier by the test). */
const startServer = (databaseUrl: string) =>
  Effect.gen(function*() {
    const port = yield* freePort
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [bin], {
          env: {
            PATH: process.env.PATH ?? "",
            PORT: String(port),
            HOST: "127.0.0.1",
            WMS_DATABASE_URL: databaseUrl,
            WMS_ADMIN_PASSWORD: adminPassword,
            WMS_JWT_SECRET: jwtSecret
          },
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      (child) => Effect.zipRight(Effect.sync(() => child.kill("SIGKILL")), exited(child))
    )
    let output = ""
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    const url = `http://127.0.0.1:${port}`
    const deadline = Date.now() + 30_000
    while (true) {
      const status = yield* Effect.promise(() =>
        fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status, () => 0)
      )
      if (status === 200) break
      if (Date.now() > deadline || child.exitCode !== null) {
        return yield* Effect.dieMessage(`the server did not start:\n${output}`)
      }
      yield* Effect.sleep("100 millis")
    }
    const call = (method: string, path: string, options: { token?: string; site?: string; body?: unknown } = {}) =>
      Effect.promise(async () => {
        const response = await fetch(`${url}${path}`, {
          method,
          headers: {
            ...(options.token === undefined
              ? {}
              : { authorization: `Bearer ${options.token}`, site: options.site ?? "main" }),
            ...(options.body === undefined ? {} : { "content-type": "application/json" })
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body)
        })
        const text = await response.text()
        return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
      })
    return { child, call }
  })

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
    const first = yield* startServer(databaseUrl)
    const login = yield* first.call("POST", "/login", { body: { email: adminEmail, password: adminPassword } })
    const token: string = login.body.token
    yield* expect204(
      yield* first.call("POST", "/webhooks", {
        token,
        body: { event_type: "preadvice_received", url: hook.url, secret: "crash" }
      }),
      "POST /webhooks"
    )
    const preAdvices = ["PA-C1", "PA-C2", "PA-C3"]
    for (const [index, id] of preAdvices.entries()) {
      const sku = `SKU-C${index}`
      yield* expect204(yield* first.call("POST", "/skus", { token, body: { sku_id: sku, description: sku } }), "sku")
      yield* expect204(
        yield* first.call("POST", "/preadvices", {
          token,
          body: { pre_advice_id: id, lines: [{ sku_id: sku, qty: 1 }] }
        }),
        "pre-advice"
      )
      yield* expect204(yield* first.call("POST", `/preadvices/${id}/receive`, { token, body: {} }), "receive")
    }
    yield* eventually(() => hook.received().length >= 1, () => `${label}: no first attempt`)
    hook.answerWith(() => "timeout")
    // The first retry comes 5 s after the 500; it hangs, and the server dies in the middle of it.
    yield* eventually(() => hook.received().some((r) => r.answer === "timeout"), () => `${label}: no retry`, 30_000)
    first.child.kill("SIGKILL")
    yield* exited(first.child)
    hook.answerWith(() => 200)
    yield* Effect.all([startServer(databaseUrl), startServer(databaseUrl)], { concurrency: 2 })
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

it.live("a server killed with deliveries pending loses none: after a restart every event arrives, in order", () =>
  Effect.all([
    Effect.flatMap(freshSqliteFile, (file) => crashAndRecover("sqlite", `sqlite:${file}`)),
    Effect.flatMap(freshPgDatabase, (url) => crashAndRecover("postgres", url))
  ], { concurrency: "unbounded" }).pipe(Effect.scoped), { timeout: 120_000 })
