import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freshPgDatabase } from "../../../testing/databases.js"
import { call, type ServerProcess, startProcess } from "../../../testing/processes.js"

const freshDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "wms-start-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
)

/**
 * The built server in `cwd`, with only the given variables; killed when the scope closes. /health is
 * polled from the moment the process starts, strictly: an accepted connection must be answered.
 */
const start = (cwd: string, env: Record<string, string>) =>
  // 90 s: a first start hashes the generated password at the default cost, slow on a loaded machine.
  startProcess({ cwd, env, health: { strict: true, timeoutMillis: 90_000 } })

const generatedPassword = (output: string) => {
  const lines = output.split("\n").filter((line) => line.includes("password"))
  assert.strictEqual(lines.length, 1, output)
  const match = lines[0].match(/admin admin@example\.com with password (\S+) \(shown once\)/)
  assert.isNotNull(match, lines[0])
  return match![1]
}

const loginAsAdmin = (running: ServerProcess, password: string) =>
  Effect.gen(function*() {
    const response = yield* call(running, "POST", "/login", { body: { email: "admin@example.com", password } })
    assert.strictEqual(response.status, 200, JSON.stringify(response.body))
    assert.strictEqual(response.body.admin, true)
    assert.strictEqual(response.body.site, "main")
    return response.body.token as string
  })

describe("the bundled server", () => {
  it.live(
    "without configuration it creates ./data/wms.db and prints a generated admin password once",
    () =>
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
      }).pipe(Effect.scoped),
    120_000
  )

  it.live(
    "after a restart on the same file, tokens stay valid and no new password is printed",
    () =>
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
      }).pipe(Effect.scoped),
    120_000
  )

  it.live(
    "with only WMS_DATABASE_URL set to a new PostgreSQL database it starts and lets the admin in",
    () =>
      Effect.gen(function*() {
        const url = yield* freshPgDatabase
        const cwd = yield* freshDirectory
        const running = yield* start(cwd, { WMS_DATABASE_URL: url })
        assert.isFalse(existsSync(join(cwd, "data")))
        const token = yield* loginAsAdmin(running, generatedPassword(running.output()))
        const verified = yield* call(running, "GET", "/verifytoken", { token })
        assert.strictEqual(verified.status, 200)
      }).pipe(Effect.scoped),
    120_000
  )
})
