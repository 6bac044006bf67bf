/**
 * Bundled server processes (`node packages/http/dist/server.bundle.js`, what `npm start` runs,
 * built by `npm run build`) for tests that need several servers on one database or start the server
 * as a user would. Each process is killed when its scope closes, also when the test fails.
 */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { adminPassword, jwtSecret } from "./server.js"

const bin = fileURLToPath(new URL("../packages/http/dist/server.bundle.js", import.meta.url))

export interface ServerProcess {
  readonly url: string
  readonly child: ChildProcess
  /** What the process wrote to stdout and stderr so far. */
  readonly output: () => string
}

/** A port that was free a moment ago on loopback. */
export const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** Resolves once the process has exited (at once when it already has). */
export const exited = (child: ChildProcess) =>
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

export interface HealthOptions {
  /**
   * Also fail at once when a connection is accepted but not answered (a port opened before the app
   * is ready leaves requests hanging) or when the first answer is not 200 `{"status":"ok"}`.
   */
  readonly strict?: boolean
  readonly timeoutMillis?: number
}

/** Polls `/health` until it answers 200; fails with the process output when it does not in time. */
export const waitForHealth = (server: ServerProcess, options: HealthOptions = {}) =>
  Effect.gen(function*() {
    const strict = options.strict === true
    const timeoutMillis = options.timeoutMillis ?? 60_000
    const deadline = Date.now() + timeoutMillis
    while (Date.now() < deadline && server.child.exitCode === null) {
      const outcome = yield* Effect.promise(() =>
        fetch(`${server.url}/health`, { signal: AbortSignal.timeout(strict ? 10_000 : 1000) }).then(
          async (response) => ({ _tag: "Answered", status: response.status, text: await response.text() }) as const,
          (error) => ({ _tag: error?.cause?.code === "ECONNREFUSED" ? "Refused" : "Failed", error }) as const
        )
      )
      if (outcome._tag === "Answered" && strict) {
        assert.deepStrictEqual([outcome.status, JSON.parse(outcome.text)], [200, { status: "ok" }])
        return
      }
      if (outcome._tag === "Answered" && outcome.status === 200) return
      if (outcome._tag === "Failed" && strict) {
        assert.fail(`GET /health was accepted but not answered: ${outcome.error}\n${server.output()}`)
      }
      yield* Effect.sleep(strict ? "10 millis" : "100 millis")
    }
    assert.fail(`the server did not answer /health within ${timeoutMillis / 1000} seconds:\n${server.output()}`)
  })

export interface ProcessOptions {
  /** The working directory; the test run's own when absent. */
  readonly cwd?: string
  /** The environment besides PATH, PORT and HOST: nothing else is inherited. */
  readonly env: Record<string, string>
  readonly health?: HealthOptions
  /** The program and its arguments; the bundle on this Node when absent. */
  readonly command?: readonly [string, ...Array<string>]
}

/** The built server on a free loopback port, once `/health` answers. Killed when the scope closes. */
export const startProcess = (options: ProcessOptions) =>
  Effect.gen(function*() {
    const port = yield* freePort
    const [program, ...args] = options.command ?? [process.execPath, bin]
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(program, args, {
          cwd: options.cwd,
          env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", ...options.env },
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      stop
    )
    let output = ""
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    const server: ServerProcess = { url: `http://127.0.0.1:${port}`, child, output: () => output }
    yield* waitForHealth(server, options.health)
    return server
  })

/**
 * A server process on `databaseUrl` with the test admin password and JWT secret, so one token
 * works on every process of a database, and `env` besides. Killed when the scope closes. Its
 * password hashes take the lowest cost allowed, as the in-process test servers' do (`testConfig`):
 * at the default cost, hashing the admin's password and checking it at each login were a large
 * share of a storm's CPU. `Startup` starts the bundle at the default cost.
 */
export const startServer = (databaseUrl: string, env: Record<string, string> = {}) =>
  startProcess({
    env: {
      WMS_DATABASE_URL: databaseUrl,
      WMS_ADMIN_PASSWORD: adminPassword,
      WMS_JWT_SECRET: jwtSecret,
      WMS_PASSWORD_HASH_COST: "14",
      ...env
    }
  })

export interface CallResult {
  readonly status: number

  readonly body: any
  readonly headers: Record<string, string>
}

/**
 * One HTTP request to a server process. A connection failure or timeout is status 0 with the
 * error as body, so a test can report it next to the other answers instead of dying.
 */
export const call = (
  server: ServerProcess,
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  options: {
    readonly token?: string
    readonly site?: string
    readonly body?: unknown
    readonly headers?: Record<string, string>
  } = {}
) =>
  Effect.promise(async (): Promise<CallResult> => {
    try {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
          ...(options.site === undefined ? {} : { site: options.site }),
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(30_000)
      })
      const text = await response.text()
      let body: unknown = text
      try {
        body = text === "" ? undefined : JSON.parse(text)
      } catch {
        // Not JSON: kept as text for the report.
      }
      return { status: response.status, body, headers: Object.fromEntries(response.headers) }
    } catch (error) {
      return { status: 0, body: String(error), headers: {} }
    }
  })
