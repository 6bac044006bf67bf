import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freshPgDatabase } from "../../../testing/databases.js"

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

const freshDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "wms-start-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
)

interface Running {
  readonly url: string
  readonly child: ChildProcess
  readonly output: () => string
}

const exited = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
  })

const stop = (child: ChildProcess) =>
  Effect.gen(function*() {
    child.kill("SIGTERM")
    const done = yield* exited(child).pipe(Effect.timeout("5 seconds"), Effect.option)
    if (done._tag === "None") {
      child.kill("SIGKILL")
      yield* exited(child).pipe(Effect.timeout("5 seconds"), Effect.ignore)
    }
  })

/** The built server in `cwd`, with only the given variables; killed when the scope closes. */
const start = (cwd: string, env: Record<string, string>) =>
  Effect.gen(function*() {
    const port = yield* freePort
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [bin], {
          cwd,
          env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", ...env },
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      stop
    )
    let output = ""
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    const running: Running = { url: `http://127.0.0.1:${port}`, child, output: () => output }
    yield* waitForHealth(running)
    return running
  })

/**
 * Polls /health from the moment the process starts. A refused connection is retried; a connection
 * that is accepted must be answered: a port opened before the app is ready leaves requests hanging.
 */
const waitForHealth = (running: Running) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline && running.child.exitCode === null) {
      const outcome = yield* Effect.promise(() =>
        fetch(`${running.url}/health`, { signal: AbortSignal.timeout(10_000) }).then(
          async (response) => ({ _tag: "Answered", status: response.status, text: await response.text() }) as const,
          (error) => ({ _tag: error?.cause?.code === "ECONNREFUSED" ? "Refused" : "Failed", error }) as const
        )
      )
      if (outcome._tag === "Answered") {
        assert.deepStrictEqual([outcome.status, JSON.parse(outcome.text)], [200, { status: "ok" }])
        return
      }
      if (outcome._tag === "Failed") {
        assert.fail(`GET /health was accepted but not answered: ${outcome.error}\n${running.output()}`)
      }
      yield* Effect.sleep("10 millis")
    }
    assert.fail(`the server did not answer /health within 30 seconds:\n${running.output()}`)
  })

const call = (running: Running, method: string, path: string, options: { token?: string; body?: unknown } = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`${running.url}${path}`, {
      method,
      headers: {
        ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        ...(options.body === undefined ? {} : { "content-type": "application/json" })
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(10_000)
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  })

const generatedPassword = (output: string) => {
  const lines = output.split("\n").filter((line) => line.includes("password"))
  assert.strictEqual(lines.length, 1, output)
  const match = lines[0].match(/admin admin@example\.com with password (\S+) \(shown once\)/)
  assert.isNotNull(match, lines[0])
  return match![1]
}

const loginAsAdmin = (running: Running, password: string) =>
  Effect.gen(function*() {
    const response = yield* call(running, "POST", "/login", { body: { email: "admin@example.com", password } })
    assert.strictEqual(response.status, 200, JSON.stringify(response.body))
    assert.strictEqual(response.body.admin, true)
    assert.strictEqual(response.body.site, "main")
    return response.body.token as string
  })

describe("the bundled server", () => {
  it.scopedLive("without configuration it creates ./data/wms.db and prints a generated admin password once", () =>
    Effect.gen(function*() {
      const cwd = yield* freshDirectory
      const running = yield* start(cwd, {})
      assert.isTrue(existsSync(join(cwd, "data", "wms.db")))
      const password = generatedPassword(running.output())
      assert.isAtLeast(password.length, 16)
      const token = yield* loginAsAdmin(running, password)
      const sites = yield* call(running, "GET", "/sites", { token })
      assert.deepStrictEqual([sites.status, sites.body], [403, { message: "Missing header site" }])
      const wrong = yield* call(running, "POST", "/login", { body: { email: "admin@example.com", password: "x" } })
      assert.strictEqual(wrong.status, 401)
    }), 120_000)

  it.scopedLive("after a restart on the same file, tokens stay valid and no new password is printed", () =>
    Effect.gen(function*() {
      const cwd = yield* freshDirectory
      const [token, password] = yield* Effect.scoped(Effect.gen(function*() {
        const first = yield* start(cwd, {})
        const password = generatedPassword(first.output())
        const issued = yield* loginAsAdmin(first, password)
        return [issued, password] as const
      }))
      const second = yield* start(cwd, {})
      assert.notInclude(second.output(), "password")
      assert.notInclude(second.output(), "Created site")
      const verified = yield* call(second, "GET", "/verifytoken", { token })
      assert.strictEqual(verified.status, 200, JSON.stringify(verified.body))
      const sites = yield* call(second, "GET", "/sites", { token })
      assert.strictEqual(sites.status, 403)
      assert.isString(yield* loginAsAdmin(second, password))
      const forged = yield* call(second, "GET", "/verifytoken", { token: `${token.slice(0, -2)}xx` })
      assert.strictEqual(forged.status, 401)
    }), 120_000)

  it.scopedLive("with only WMS_DATABASE_URL set to a new PostgreSQL database it starts and lets the admin in", () =>
    Effect.gen(function*() {
      const url = yield* freshPgDatabase
      const cwd = yield* freshDirectory
      const running = yield* start(cwd, { WMS_DATABASE_URL: url })
      assert.isFalse(existsSync(join(cwd, "data")))
      const token = yield* loginAsAdmin(running, generatedPassword(running.output()))
      const verified = yield* call(running, "GET", "/verifytoken", { token })
      assert.strictEqual(verified.status, 200)
    }), 120_000)
})
