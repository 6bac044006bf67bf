/**
 * What the benchmark scripts share: the report's table and machine facts, the median, the
 * PostgreSQL maintenance database from which throw-away databases are created and dropped, and
 * the load generator.
 */
import { fork } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { cpus, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"

/** One JSON request to a server, on site `main` unless `site` says: its status, text and parsed body. */
export const request = async (baseUrl, method, path, { body, site = "main", token } = {}) => {
  const headers = { site }
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  return { status: response.status, text, body: text === "" ? undefined : JSON.parse(text) }
}

/** One autocannon run in its own process (`http/load.js`); resolves with its figures. */
export const load = (options) =>
  new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL("http/load.js", import.meta.url)), {
      stdio: ["ignore", "ignore", "inherit", "ipc"]
    })
    child.once("message", (message) => (message.error ? reject(new Error(message.error)) : resolve(message.figures)))
    child.once("error", reject)
    child.send(options)
  })

/** The maintenance database (`WMS_BENCH_PG_URL`). */
export const pgAdminUrl = process.env.WMS_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** The URL of database `name` on the maintenance database's server. */
export const pgUrl = (name) => {
  const url = new URL(pgAdminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** Runs one statement on the maintenance database, e.g. `CREATE DATABASE`. */
export const onAdmin = async (statement) => {
  const client = new pg.Client({ connectionString: pgAdminUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** A TCP port free on the loopback address, for a server to listen on. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** A fresh database of `store` for `purpose`: its `WMS_DATABASE_URL` and how to drop it. */
export const freshDatabase = async (store, purpose) => {
  if (store === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), `wms-bench-${purpose}-`))
    return { url: `sqlite:${join(dir, "wms.db")}`, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const name = `wms_bench_${purpose}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  await onAdmin(`CREATE DATABASE ${name}`)
  return { url: pgUrl(name), drop: () => onAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** Progress, on stderr so that stdout holds only the report. */
export const log = (line) => process.stderr.write(`${line}\n`)

/** A plain-text table, each column right-aligned. */
export const table = (headers, rows) => {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => String(row[i]).length)))
  const line = (cells) => cells.map((cell, i) => String(cell).padStart(widths[i])).join("  ")
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

export const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** How many alternated runs a figure needs before its verdict says more than "too few runs". */
export const minimumRuns = 3

/**
 * The spread of a figure measured over alternated runs of the engine and its bound: the lowest and
 * highest of the per-pair ratios (run i of the engine over run i of the bound), and the machine's
 * load average as the runs started, lowest and highest.
 */
export const spreadOf = (engineRuns, boundRuns, value) => {
  const ratios = engineRuns.map((run, i) => value(run) / value(boundRuns[i]))
  const loads = [...engineRuns, ...boundRuns].map((run) => run.load)
  const round2 = (x) => Math.round(x * 100) / 100
  return {
    ratio_min: round2(Math.min(...ratios)),
    ratio_max: round2(Math.max(...ratios)),
    load_min: Math.min(...loads),
    load_max: Math.max(...loads)
  }
}

/** A verdict on a target: met, missed, or not judged from fewer than `minimumRuns` runs. */
export const verdict = (met, runs) => (runs < minimumRuns ? `too few runs (${runs})` : met ? "ok" : "MISSED")

/** The machine a report was measured on. */
export const machine = () => ({
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  memory_gib: Math.round(totalmem() / 2 ** 30),
  node: process.version
})
