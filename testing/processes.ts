/**
 * Bundled server processes (`node packages/http/dist/bin.js`, built by `tsc -b`) for tests that
 * need several servers on one database. Each process is killed when its scope closes, also when
 * the test fails.
 */
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import { adminPassword, jwtSecret } from "./server.js"

const bin = fileURLToPath(new URL("../packages/http/dist/bin.js", import.meta.url))

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

/** Polls `/health` until it answers 200; dies with the process output when it does not in time. */
export const waitForHealth = (server: ServerProcess, timeoutMillis = 60_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMillis
    while (Date.now() < deadline && server.child.exitCode === null) {
      const status = yield* Effect.promise(() =>
        fetch(`${server.url}/health`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status, () => 0)
      )
      if (status === 200) return
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.dieMessage(`the server did not answer /health:\n${server.output()}`)
  })

/**
 * A server process on `databaseUrl` with the test admin password and JWT secret, so one token
 * works on every process of a database. Killed when the scope closes.
 */
export const startServer = (databaseUrl: string) =>
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
      stop
    )
    let output = ""
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
    const server: ServerProcess = { url: `http://127.0.0.1:${port}`, child, output: () => output }
    yield* waitForHealth(server)
    return server
  })

export interface CallResult {
  readonly status: number
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any
}

/**
 * One HTTP request to a server process. A connection failure or timeout is status 0 with the
 * error as body, so a test can report it next to the other answers instead of dying.
 */
export const call = (
  server: ServerProcess,
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  options: { readonly token?: string; readonly site?: string; readonly body?: unknown } = {}
) =>
  Effect.promise(async (): Promise<CallResult> => {
    try {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
          ...(options.site === undefined ? {} : { site: options.site }),
          ...(options.body === undefined ? {} : { "content-type": "application/json" })
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
      return { status: response.status, body }
    } catch (error) {
      return { status: 0, body: String(error) }
    }
  })
