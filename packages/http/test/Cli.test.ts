/**
 * The `wms` command as a user runs it: built by `npm run build`, as a child process on a temporary
 * SQLite file. Migration with the first admin, import with its report and exit code, export to
 * standard output, a round trip into another database, and a password reset that the server then
 * accepts at /login.
 *
 * The runs go to the bundle of the command (`dist/cli.bundle.js`, what `npm run wms` runs), which
 * starts in a third of the time of its hundreds of modules; the first migration runs the
 * published `wms` itself (`dist/cli/bin.js`), so that its modules are seen to load and work too.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freshSqliteFile } from "../../../testing/databases.js"
import { adminEmail, Api, testServer } from "../../../testing/server.js"

const bin = fileURLToPath(new URL("../dist/cli.bundle.js", import.meta.url))
const publishedBin = fileURLToPath(new URL("../dist/cli/bin.js", import.meta.url))

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `wms` (the bundle, or `program`) with `args` on `database`, `input` on its standard input;
 * stderr is a pipe, no terminal.
 */
const wms = (database: string, args: ReadonlyArray<string>, input = "", program = bin) =>
  Effect.async<Run>((resume) => {
    const child = spawn(process.execPath, [program, ...args], {
      env: { PATH: process.env.PATH ?? "", WMS_DATABASE_URL: `sqlite:${database}`, WMS_PASSWORD_HASH_COST: "14" },
      cwd: join(database, "..")
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    child.stdin.end(input)
  })

/** `script` (util-linux) runs a command on a pseudo-terminal and copies what it shows to its stdout. */
const script = "/usr/bin/script"

/** Runs `shell` on a terminal: answers what the terminal showed. */
const onTerminal = (database: string, shell: string) =>
  Effect.async<Run>((resume) => {
    const child = spawn(script, ["-qec", shell, "/dev/null"], {
      env: { PATH: process.env.PATH ?? "", WMS_DATABASE_URL: `sqlite:${database}`, WMS_PASSWORD_HASH_COST: "14" },
      cwd: join(database, "..")
    })
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr: "" })))
    child.stdin.end()
  })

const expectRun = (run: Run, code: number) => assert.strictEqual(run.code, code, `${run.stdout}\n${run.stderr}`)

const loginStatus = (database: string, password: string) =>
  Effect.gen(function*() {
    const api = yield* Api
    return (yield* api.request("POST", "/login", { body: { email: adminEmail, password } })).status
  }).pipe(Effect.provide(testServer(`sqlite:${database}`)), Effect.scoped)

// Each run of `wms` is a new Node process: a second or more each on a busy machine, so the tests
// that run a dozen of them get minutes.
describe("the wms command", () => {
  it.effect(
    "migrates, imports with a report, exports, and round-trips into another database",
    () =>
      Effect.gen(function*() {
        const database = yield* freshSqliteFile
        const migrated = yield* wms(database, ["migrate"], "", publishedBin)
        expectRun(migrated, 0)
        assert.match(migrated.stderr, /Created site main and admin admin@example\.com with password \S+ \(shown once\)/)
        assert.match(migrated.stderr, /The database is up to date/)
        const again = yield* wms(database, ["migrate"])
        expectRun(again, 0)
        assert.notMatch(again.stderr, /Created site/)

        const folder = join(database, "..")
        writeFileSync(
          join(folder, "skus.csv"),
          "sku_id,description,each_weight\nA,Apple,0.2\nB,,\nC,\"Cherry, dark\",\n"
        )
        const imported = yield* wms(database, ["import", "skus", "skus.csv"])
        // A row was not written: exit 1, the report on standard output, a summary and no progress bar on stderr.
        expectRun(imported, 1)
        assert.deepStrictEqual(JSON.parse(imported.stdout), {
          rows: 3,
          written: 2,
          failed: 1,
          errors: [{ row: 3, field: "description", message: "Missing field description" }]
        })
        assert.strictEqual(imported.stderr, "2 of 3 rows written to main\n")

        const orders = [
          { order_id: "SO-1", lines: [{ sku_id: "A", qty: 2 }, { sku_id: "C", qty: 1 }] },
          { order_id: "SO-2" }
        ]
        const fromStdin = yield* wms(
          database,
          ["import", "orders", "-", "--format", "ndjson", "--site", "main"],
          orders.map((order) => JSON.stringify(order)).join("\n")
        )
        expectRun(fromStdin, 0)
        assert.deepInclude(JSON.parse(fromStdin.stdout), { rows: 2, written: 2, failed: 0 })

        // Exports only read: they run side by side, and beside the migration of another database.
        const other = join(folder, "other.db")
        const [skus, exportedOrders, exportedCsv, otherMigrated] = yield* Effect.all([
          wms(database, ["export", "skus"]),
          wms(database, ["export", "orders", "--format", "ndjson"]),
          wms(database, ["export", "orders"]),
          wms(other, ["migrate"])
        ], { concurrency: "unbounded" })
        expectRun(skus, 0)
        assert.match(skus.stdout, /^sku_id,client_id,description,/)
        assert.include(skus.stdout, "\nC,,\"Cherry, dark\",")
        expectRun(exportedOrders, 0)
        const records = exportedOrders.stdout.trimEnd().split("\n").map((line) => JSON.parse(line))
        assert.deepStrictEqual(
          records.map((order: { order_id: string; lines: Array<{ sku_id: string }> }) => [
            order.order_id,
            order.lines.map((line) => line.sku_id)
          ]),
          [["SO-1", ["A", "C"]], ["SO-2", []]]
        )

        // Into another database: what it exports is what the first exported.
        expectRun(otherMigrated, 0)
        writeFileSync(join(folder, "exported-skus.csv"), skus.stdout)
        writeFileSync(join(folder, "exported-orders.csv"), exportedCsv.stdout)
        expectRun(yield* wms(other, ["import", "skus", "exported-skus.csv"]), 0)
        expectRun(yield* wms(other, ["import", "orders", "exported-orders.csv"]), 0)
        const [otherSkus, otherOrders] = yield* Effect.all([
          wms(other, ["export", "skus"]),
          wms(other, ["export", "orders", "--format", "ndjson"])
        ], { concurrency: "unbounded" })
        assert.strictEqual(otherSkus.stdout, skus.stdout)
        assert.deepStrictEqual(
          otherOrders.stdout.trimEnd().split("\n").map((line) => {
            const { creation_datetime: _, ...order } = JSON.parse(line)
            return order
          }),
          records.map(({ creation_datetime: _, ...order }) => order)
        )
        assert.strictEqual(readFileSync(join(folder, "exported-skus.csv"), "utf8"), skus.stdout)
      }).pipe(Effect.scoped),
    240_000
  )

  it.effect.skipIf(!existsSync(script))(
    "shows a progress bar of an import when standard error is a terminal",
    () =>
      Effect.gen(function*() {
        const database = yield* freshSqliteFile
        expectRun(yield* wms(database, ["migrate"]), 0)
        const folder = join(database, "..")
        writeFileSync(join(folder, "skus.csv"), "sku_id,description\nA,Apple\nB,\nC,Cherry\n")
        const shown = yield* onTerminal(database, `${process.execPath} ${bin} import skus skus.csv > report.json`)
        expectRun(shown, 1)
        assert.match(shown.stdout, /100% \| 2 written, 1 not written/)
        assert.match(shown.stdout, /2 of 3 rows written to main/)
        assert.deepInclude(JSON.parse(readFileSync(join(folder, "report.json"), "utf8")), { written: 2, failed: 1 })
      }).pipe(Effect.scoped),
    60_000
  )

  it.effect(
    "answers a wrong command with its usage (2) and an unknown kind, site or file with one line (1)",
    () =>
      Effect.gen(function*() {
        const database = yield* freshSqliteFile
        expectRun(yield* wms(database, ["migrate"]), 0)
        // Each run only reads the database: they run side by side.
        const [usage, empty, unnamed, kind, site, file, help] = yield* Effect.all([
          wms(database, ["frobnicate"]),
          wms(database, []),
          wms(database, ["import", "skus", "skus.txt"]),
          wms(database, ["export", "widgets"]),
          wms(database, ["export", "skus", "--site", "nowhere"]),
          wms(database, ["import", "skus", "missing.csv"]),
          wms(database, ["--help"])
        ], { concurrency: "unbounded" })
        expectRun(usage, 2)
        assert.match(usage.stderr, /^Unknown command frobnicate\n\nUsage: wms <command>/)
        expectRun(empty, 2)
        assert.strictEqual(empty.stdout, "")
        assert.match(empty.stderr, /^Name a command\n\nUsage: wms <command>/)
        expectRun(unnamed, 2)
        assert.match(unnamed.stderr, /^Name the format of skus\.txt: --format csv or --format ndjson/)
        expectRun(kind, 1)
        assert.strictEqual(
          kind.stderr,
          "Unknown kind widgets: the kinds are skus, customers, suppliers, carriers, orders, preadvices, stock, holds, returns\n"
        )
        expectRun(site, 1)
        assert.match(site.stderr, /^Invalid site nowhere: no site or client has that id/)
        expectRun(file, 1)
        assert.match(file.stderr, /^Cannot read missing\.csv: ENOENT/)
        expectRun(help, 0)
        assert.match(help.stdout, /wms admin reset-password <email>/)
      }).pipe(Effect.scoped),
    120_000
  )

  it.effect(
    "resets a lost password: printed once, or read from standard input; the server then logs in with it",
    () =>
      Effect.gen(function*() {
        const database = yield* freshSqliteFile
        const migrated = yield* wms(database, ["migrate"])
        const first = /with password (\S+) \(shown once\)/.exec(migrated.stderr)![1]
        const reset = yield* wms(database, ["admin", "reset-password", "Admin@Example.com"])
        expectRun(reset, 0)
        const generated = reset.stdout.trim()
        assert.match(generated, /^[\w-]{24}$/)
        assert.match(reset.stderr, /Set a new password for admin@example\.com \(shown once\); its sessions have ended/)
        assert.deepStrictEqual([yield* loginStatus(database, generated), yield* loginStatus(database, first)], [
          200,
          401
        ])

        const chosen = yield* wms(
          database,
          ["admin", "reset-password", adminEmail, "--password-stdin"],
          "chosen-password\n"
        )
        expectRun(chosen, 0)
        assert.strictEqual(chosen.stdout, "")
        assert.strictEqual(yield* loginStatus(database, "chosen-password"), 200)

        const short = yield* wms(database, ["admin", "reset-password", adminEmail, "--password-stdin"], "short\n")
        expectRun(short, 1)
        assert.strictEqual(short.stderr, "Invalid field password: must be at least 8 characters\n")
        const unknown = yield* wms(database, ["admin", "reset-password", "nobody@example.com"])
        expectRun(unknown, 1)
        assert.strictEqual(unknown.stderr, "User nobody@example.com not found\n")
      }).pipe(Effect.scoped),
    240_000
  )
})
