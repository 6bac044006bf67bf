/**
 * The import benchmark: a CSV of 100,000 SKU rows imported through `POST /import/skus` of the
 * bundled server and through `wms import`, on a fresh SQLite file and a fresh PostgreSQL database
 * each, with the time, the rows per second and the peak RSS of the process that imports. A smaller
 * file is imported the same way first: a peak RSS that does not grow with the rows is what a
 * streamed import promises. Prints its table and writes `bench/results/import.json`.
 *
 *   node bench/import.js [--stores sqlite,postgres] [--rows 10000,100000] [--paths http,cli]
 *   npm run bench -- --sections import [--stores sqlite]
 *
 * The peak RSS is the process's high-water mark (`VmHWM` of /proc/<pid>/status, Linux): read once
 * the import has answered for the server, which keeps running; polled every 50 ms until it exits for
 * `wms`. The file is written to a temporary folder row by row, and sent as it is read from disk.
 * Needs the build (`npm run build`). PostgreSQL is reached at `WMS_BENCH_PG_URL` (default
 * `postgres://postgres@127.0.0.1:5432/test`), where throw-away databases are created and dropped.
 */
import { spawn } from "node:child_process"
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { finished } from "node:stream/promises"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { freePort, freshDatabase, log, machine, table } from "./common.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const results = join(root, "bench", "results")
const serverBin = join(root, "packages", "http", "dist", "server.bundle.js")
const cliBin = join(root, "packages", "http", "dist", "cli", "bin.js")

const { values } = parseArgs({
  options: {
    stores: { type: "string", default: "sqlite,postgres" },
    rows: { type: "string", default: "10000,100000" },
    paths: { type: "string", default: "http,cli" },
    output: { type: "string", default: join(results, "import.json") }
  }
})

const adminPassword = "bench-admin-password"
const environment = {
  PATH: process.env.PATH ?? "",
  WMS_JWT_SECRET: "bench-secret-of-at-least-32-bytes!!",
  WMS_ADMIN_PASSWORD: adminPassword,
  WMS_PASSWORD_HASH_COST: "14",
  WMS_ACCESS_LOG: "false"
}

const mib = (kib) => Math.round(kib / 1024)

/** The process's peak RSS so far, in KiB; undefined once it has exited. */
const peakRssKiB = (pid) => {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? undefined : Number(match[1])
  } catch {
    return undefined
  }
}

/** Writes a CSV of `rows` SKUs, row by row. */
const writeSkus = async (file, rows) => {
  const out = createWriteStream(file)
  const write = (text) => (out.write(text) ? undefined : new Promise((resolve) => out.once("drain", resolve)))
  await write("sku_id,description,ean,expiry_sku,expiry_days,each_weight,qty_on_full_pallet,pick_method\n")
  for (let i = 0; i < rows; i++) {
    const expiry = i % 5 === 0
    await write(
      `SKU-${String(i).padStart(7, "0")},"Article ${i}, boxed",${8_700_000_000_000 + i},${expiry},` +
        `${expiry ? 30 + (i % 60) : ""},${(i % 250) / 100},${48 + (i % 24)},${1 + (i % 2)}\n`
    )
  }
  out.end()
  await finished(out)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `node <args>` to its end; answers its output, exit code and peak RSS (polled). */
const run = (args, env) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)))
    let peak = 0
    const poll = setInterval(() => (peak = Math.max(peak, peakRssKiB(child.pid) ?? 0)), 50)
    child.on("error", reject)
    child.on("exit", (code) => {
      clearInterval(poll)
      resolve({ code, stdout, stderr, peakKiB: peak })
    })
  })

/**
 * POSTs the file as CSV, streamed from disk, with node:http, which waits for the answer as long as
 * it takes (fetch gives up after 300 s without response headers).
 */
const postFile = (url, token, file) =>
  new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, site: "main", "content-type": "text/csv" }
    }, (response) => {
      let text = ""
      response.setEncoding("utf8").on("data", (chunk) => (text += chunk))
      response.on("end", () => resolve({ status: response.statusCode, text }))
    })
    request.on("error", reject)
    createReadStream(file).pipe(request)
  })

/** `POST /import/skus` of the bundled server, the file streamed from disk. */
const viaHttp = async (database, file) => {
  const port = await freePort()
  const child = spawn(process.execPath, [serverBin], {
    // The import's request lasts as long as the import: no limit on the time it takes to arrive.
    env: {
      ...environment,
      PORT: String(port),
      HOST: "127.0.0.1",
      WMS_DATABASE_URL: database,
      WMS_REQUEST_TIMEOUT_SECONDS: "0"
    },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let stderr = ""
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)))
  const exited = new Promise((resolve) => child.once("exit", resolve))
  try {
    const url = `http://127.0.0.1:${port}`
    const started = Date.now()
    while (await fetch(`${url}/health`).then((response) => response.status, () => 0) !== 200) {
      if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`server did not start: ${stderr}`)
      await sleep(20)
    }
    const login = await fetch(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com", password: adminPassword })
    }).then((response) => response.json())
    const beforeKiB = peakRssKiB(child.pid)
    const t0 = performance.now()
    const { status, text } = await postFile(`${url}/import/skus`, login.token, file)
    const seconds = (performance.now() - t0) / 1000
    if (status !== 200) throw new Error(`POST /import/skus answered ${status} after ${Math.round(seconds)} s: ${text}`)
    return { report: JSON.parse(text), seconds, beforeKiB, peakKiB: peakRssKiB(child.pid) }
  } finally {
    child.kill("SIGTERM")
    await exited
  }
}

/** `wms import skus <file>` after `wms migrate`. */
const viaCli = async (database, file) => {
  const env = { ...environment, WMS_DATABASE_URL: database }
  const migrated = await run([cliBin, "migrate"], env)
  if (migrated.code !== 0) throw new Error(`wms migrate failed: ${migrated.stderr}`)
  // What the loaded engine holds before any row: the peak of a command that reads none.
  const idle = await run([cliBin, "export", "carriers"], env)
  const t0 = performance.now()
  const imported = await run([cliBin, "import", "skus", file], env)
  const seconds = (performance.now() - t0) / 1000
  if (imported.code !== 0) throw new Error(`wms import failed (${imported.code}): ${imported.stderr}`)
  return { report: JSON.parse(imported.stdout), seconds, beforeKiB: idle.peakKiB, peakKiB: imported.peakKiB }
}

const main = async () => {
  const folder = mkdtempSync(join(tmpdir(), "wms-bench-import-files-"))
  const measured = []
  try {
    for (const rows of values.rows.split(",").map(Number)) {
      const file = join(folder, `skus-${rows}.csv`)
      await writeSkus(file, rows)
      for (const store of values.stores.split(",")) {
        for (const path of values.paths.split(",")) {
          log(`import: ${rows} rows on ${store} via ${path}`)
          const database = await freshDatabase(store, "import")
          try {
            const { beforeKiB, peakKiB, report, seconds } = await (path === "http" ? viaHttp : viaCli)(
              database.url,
              file
            )
            if (report.written !== rows) throw new Error(`${report.written} of ${rows} rows written`)
            measured.push({
              path,
              store,
              rows,
              seconds: Math.round(seconds * 10) / 10,
              rows_per_s: Math.round(rows / seconds),
              rss_before_mib: mib(beforeKiB),
              peak_rss_mib: mib(peakKiB)
            })
          } catch (error) {
            // A run that fails is a figure too (a server's request timeout, say): the others go on.
            log(`  failed: ${error.message}`)
            measured.push({ path, store, rows, failed: error.message.slice(0, 300) })
          } finally {
            await database.drop()
          }
        }
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    notes: [
      "SKU rows (8 columns), each written by PUT /skus/:id's service method in its own transaction.",
      "http: the bundled server; rss before is its peak after start-up and login, peak its peak once the import " +
      "answered. cli: wms import; rss before is the peak of a wms command that reads no row (the loaded engine).",
      "Over HTTP the file is read as fast as rows are written, so the request lasts as long as the import: the " +
      "server runs with WMS_REQUEST_TIMEOUT_SECONDS=0 (its default, Node's 300 s, would end a longer one with 408)."
    ],
    import: measured
  }
  mkdirSync(results, { recursive: true })
  writeFileSync(values.output, `${JSON.stringify(report, null, 2)}\n`)
  console.log(table(
    ["import", "store", "rows", "seconds", "rows/s", "RSS before MiB", "peak RSS MiB"],
    measured.map((row) =>
      row.failed === undefined
        ? [row.path, row.store, row.rows, row.seconds, row.rows_per_s, row.rss_before_mib, row.peak_rss_mib]
        : [row.path, row.store, row.rows, "failed", "", "", ""]
    )
  ))
  for (const row of measured.filter((row) => row.failed !== undefined)) {
    console.log(`\n${row.path} ${row.store} ${row.rows}: ${row.failed}`)
  }
  for (const note of report.notes) console.log(`\n${note}`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
