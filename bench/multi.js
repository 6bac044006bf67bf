/**
 * The multi-process benchmark: 1 and then 2 bundled servers on one PostgreSQL database under a
 * mixed load that writes events, with webhooks on them delivered to a receiver in this process.
 * Each virtual client takes the next seeded order and runs its whole flow on its server: create its
 * wave (a definition per order), start it (order_allocated and wave_started events), list and
 * confirm its pick tasks, ship it (order_shipped). Reports throughput per process count, whether
 * every event reached the receiver, and lock waits sampled from `pg_stat_activity` and `pg_locks`
 * during the load: above all any writer waiting behind a `LOCK TABLE events`. Writes
 * `bench/results/multi.json`.
 *
 *   node bench/multi.js [--processes 1,2] [--clients 16] [--duration 15] [--warmup 3] [--sample-ms 20]
 *     [--bin <bundle>] [--baseline <bundle>]
 *
 * Each process count gets a fresh copy of one seeded template database. `--baseline` runs another
 * build of the server (a copy of an earlier commit's bundle) right after each, on a copy of its own,
 * so that the two are compared under the same load of the machine. PostgreSQL is reached at
 * `WMS_BENCH_PG_URL` (see `bench/common.js`). Needs the build (`npm run build`).
 */
import { spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { loadavg } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import pg from "pg"
import { freePort, log, machine, median, onAdmin, pgUrl, request, table } from "./common.js"
import { ADMIN_EMAIL, ADMIN_PASSWORD, migrate, SITE } from "./wave/data.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const results = join(root, "bench", "results")

const { values } = parseArgs({
  options: {
    processes: { type: "string", default: "1,2" },
    clients: { type: "string", default: "16" },
    duration: { type: "string", default: "15" },
    warmup: { type: "string", default: "3" },
    "sample-ms": { type: "string", default: "20" },
    bin: { type: "string", default: join(root, "packages", "http", "dist", "server.bundle.js") },
    baseline: { type: "string" },
    output: { type: "string", default: join(results, "multi.json") }
  }
})

const SKUS = 200
const ORDERS = 20_000
const jwtSecret = "bench-secret-of-at-least-32-bytes!!"
const eventTypes = ["order_allocated", "wave_started", "order_shipped"]
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const orderId = (n) => `MULTI-${String(n).padStart(6, "0")}`

// Data ------------------------------------------------------------------------------------------

/**
 * SKUs with one content each that never runs out, and orders of two lines, each with a wave
 * definition that selects it alone; answers the definitions' ids in order order.
 */
const seed = async (url) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("BEGIN")
    const adminId = (await client.query("SELECT user_id FROM users LIMIT 1")).rows[0].user_id
    const skus = Array.from({ length: SKUS }, (_, i) => `MSKU${String(i).padStart(4, "0")}`)
    await client.query(
      `INSERT INTO skus (site_id, sku_id, client_id, description, expiry_sku, obsolete, new, pick_method)
       SELECT $1, s, NULL, 'Article ' || s, 0, 0, 0, 1 FROM unnest($2::text[]) AS t(s)`,
      [SITE, skus]
    )
    await client.query(
      `INSERT INTO contents (site_id, client_id, sku_id, loc_id, tag_id, expiry_date, qty, qty_allocated,
         qty_tasked_from, created_at)
       SELECT $1, NULL, s, 'M-' || s, 'T-' || s, NULL, 100000000, 0, 0, '2025-06-01T08:00:00.000Z'
       FROM unnest($2::text[]) AS t(s)`,
      [SITE, skus]
    )
    const orders = Array.from({ length: ORDERS }, (_, n) => orderId(n))
    const refs = (await client.query(
      `INSERT INTO orders (site_id, order_id, client_id, order_date, status_id, customer_id, ship_by_date,
         carrier_id, ship_dock, created_at, created_by)
       SELECT $1, o, NULL, '2025-06-01', 14, NULL, NULL, NULL, 'DOCK-1', '2025-06-01T08:00:00.000Z', $2
       FROM unnest($3::text[]) WITH ORDINALITY AS v(o, n) ORDER BY n RETURNING id`,
      [SITE, adminId, orders]
    )).rows.map((row) => row.id)
    await client.query(
      `INSERT INTO order_lines (order_ref, line, sku_id, qty)
       SELECT r, l, ($2::text[])[1 + (r * 7 + l * 13) % $3], l FROM unnest($1::int[]) AS o(r), generate_series(1, 2) AS l`,
      [refs, skus, SKUS]
    )
    const definitions = (await client.query(
      `INSERT INTO wave_definitions (site_id, description, criterium_id, value, pick_type, autostart)
       SELECT $1, o, 2, o, 1, 0 FROM unnest($2::text[]) WITH ORDINALITY AS v(o, n) ORDER BY n RETURNING id`,
      [SITE, orders]
    )).rows.map((row) => row.id)
    await client.query("COMMIT")
    await client.query("ANALYZE")
    return definitions
  } finally {
    await client.end()
  }
}

// Servers ---------------------------------------------------------------------------------------

/** Starts a bundled server on `database` and resolves once `/health` answers 200. */
const startServer = async (bin, database) => {
  const port = await freePort()
  const child = spawn(process.execPath, [bin], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      WMS_DATABASE_URL: database,
      WMS_JWT_SECRET: jwtSecret,
      WMS_WEBHOOK_ALLOW_PRIVATE: "true",
      WMS_ACCESS_LOG: "false"
    },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let stderr = ""
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)))
  let exitCode
  const exited = new Promise((resolve) => child.once("exit", resolve))
  exited.then((code) => (exitCode = code))
  const started = Date.now()
  while (true) {
    const status = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.arrayBuffer().then(() => r.status),
      () => 0
    )
    if (status === 200) break
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}: ${stderr}`)
    if (Date.now() - started > 60_000) throw new Error(`server did not start: ${stderr}`)
    await sleep(20)
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (exitCode === undefined) child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(timer)
    }
  }
}

const call = async (baseUrl, token, method, path, body) => {
  const response = await request(baseUrl, method, path, { token, body, site: SITE })
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
  return response.body
}

// The webhook receiver --------------------------------------------------------------------------

/** An HTTP receiver on loopback that answers 204 and keeps the distinct event ids it was sent. */
const startReceiver = () =>
  new Promise((resolve) => {
    const eventIds = new Set()
    let posts = 0
    const server = createServer((request, response) => {
      const chunks = []
      request.on("data", (chunk) => chunks.push(chunk))
      request.on("end", () => {
        posts++
        eventIds.add(JSON.parse(Buffer.concat(chunks).toString("utf8")).id)
        response.writeHead(204).end()
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        eventIds,
        posts: () => posts,
        close: () => new Promise((done) => server.close(done))
      }))
  })

// Lock waits ------------------------------------------------------------------------------------

/**
 * Samples every `everyMs` the sessions of the database waiting on a heavyweight lock, each with
 * the queries of the sessions that block it (`pg_blocking_pids`: holders and requests queued
 * ahead). Counts the samples that saw any wait, a wait on the events table's lock, and a writer
 * waiting behind a `LOCK TABLE events`; keeps how often each waiting statement was seen.
 */
const startSampler = async (url, everyMs) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const counts = { samples: 0, any_lock_wait: 0, events_lock_wait: 0, writer_behind_lock_table_events: 0 }
  const waiting = new Map()
  let running = true
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query(
        `SELECT left(regexp_replace(a.query, '\\s+', ' ', 'g'), 90) AS query,
           EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted
             AND l.locktype = 'relation' AND l.relation = 'events'::regclass) AS on_events,
           EXISTS (SELECT 1 FROM pg_stat_activity b WHERE b.pid = ANY (pg_blocking_pids(a.pid))
             AND b.query ILIKE '%LOCK TABLE events%') AS behind_lock_table
         FROM pg_stat_activity a
         WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' AND a.pid <> pg_backend_pid()`
      )
      counts.samples++
      if (rows.length > 0) counts.any_lock_wait++
      if (rows.some((row) => row.on_events)) counts.events_lock_wait++
      if (rows.some((row) => row.behind_lock_table && !/^\s*LOCK TABLE/i.test(row.query))) {
        counts.writer_behind_lock_table_events++
      }
      for (const row of rows) waiting.set(row.query, (waiting.get(row.query) ?? 0) + 1)
      await sleep(everyMs)
    }
  })()
  return async () => {
    running = false
    await loop
    await client.end()
    return {
      ...counts,
      waiting_statements: [...waiting].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([query, samples]) => ({
        query,
        samples
      }))
    }
  }
}

// One run ---------------------------------------------------------------------------------------

/** `processes` servers of `bin` on a fresh copy of the template under the load; answers its figures. */
const runOnce = async (template, definitions, processes, bin, server) => {
  const name = `${template}_${server}_p${processes}`
  await onAdmin(`CREATE DATABASE ${name} TEMPLATE ${template}`)
  const database = pgUrl(name)
  const servers = []
  const receiver = await startReceiver()
  try {
    for (let i = 0; i < processes; i++) servers.push(await startServer(bin, database))
    const token = (await call(servers[0].url, undefined, "POST", "/login", {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD
    })).token
    for (const event_type of eventTypes) {
      await call(servers[0].url, token, "POST", "/webhooks", { event_type, url: receiver.url })
    }
    const db = new pg.Client({ connectionString: database })
    await db.connect()
    const firstEvent = Number((await db.query("SELECT COALESCE(max(id), 0) AS max FROM events")).rows[0].max)

    let next = 0
    const started = Date.now()
    const measureFrom = started + Number(values.warmup) * 1000
    const stopAt = measureFrom + Number(values.duration) * 1000
    const flows = []
    let requests = 0
    const flow = async (server, n) => {
      const t0 = Date.now()
      const timed = (method, path, body) => {
        requests += Date.now() >= measureFrom ? 1 : 0
        return call(server.url, token, method, path, body)
      }
      const { wave_id } = await timed("POST", "/waves/create", { wavedef_id: definitions[n] })
      await timed("POST", "/waves/start", { wave_id })
      const tasks = await timed("GET", `/tasks?wave_id=${wave_id}`)
      for (const task of tasks) await timed("POST", `/tasks/${task.id}/confirm`)
      await timed("POST", `/orders/${orderId(n)}/ship`)
      const t1 = Date.now()
      if (t1 >= measureFrom && t1 < stopAt) flows.push(t1 - t0)
    }
    const client = async (i) => {
      const server = servers[i % servers.length]
      while (Date.now() < stopAt) {
        const n = next++
        if (n >= ORDERS) throw new Error(`more than ${ORDERS} orders: seed more`)
        await flow(server, n)
      }
    }
    let stopSampler
    const sampling = sleep(measureFrom - Date.now()).then(async () => {
      stopSampler = await startSampler(database, Number(values["sample-ms"]))
    })
    const cpuBefore = process.cpuUsage()
    await Promise.all(Array.from({ length: Number(values.clients) }, (_, i) => client(i)))
    await sampling
    const locks = await stopSampler()
    const loadCpu = process.cpuUsage(cpuBefore)

    // Every event of a subscribed type after the webhooks were made should reach the receiver.
    const expected = Number(
      (await db.query(
        "SELECT count(*) AS n FROM events WHERE id > $1 AND site_id = $2 AND event_type = ANY($3)",
        [firstEvent, SITE, eventTypes]
      )).rows[0].n
    )
    const drainFrom = Date.now()
    while (receiver.eventIds.size < expected && Date.now() - drainFrom < 60_000) await sleep(50)
    const deliveredAfterMs = Date.now() - drainFrom
    await db.end()
    const seconds = Number(values.duration)
    return {
      server,
      processes,
      clients: Number(values.clients),
      orders_per_s: Math.round((flows.length / seconds) * 10) / 10,
      requests_per_s: Math.round(requests / seconds),
      flow_p50_ms: median(flows),
      flow_p99_ms: [...flows].sort((a, b) => a - b)[Math.floor(flows.length * 0.99)] ?? null,
      load_generator_cpu_ms: Math.round((loadCpu.user + loadCpu.system) / 1000),
      events: expected,
      delivered: receiver.eventIds.size,
      posts: receiver.posts(),
      drained_ms_after_load: deliveredAfterMs,
      locks
    }
  } finally {
    for (const server of servers) await server.stop()
    await receiver.close()
    await onAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}

const main = async () => {
  const started = Date.now()
  const loadBefore = loadavg()
  const template = `wms_bench_multi_${process.pid}`
  await onAdmin(`CREATE DATABASE ${template}`)
  const runs = []
  try {
    log(`multi: seeding ${ORDERS} orders`)
    await migrate(pgUrl(template))
    const definitions = await seed(pgUrl(template))
    for (const processes of values.processes.split(",").map(Number)) {
      log(`multi: ${processes} process(es), ${values.clients} clients, ${values.duration} s`)
      runs.push(await runOnce(template, definitions, processes, values.bin, "engine"))
      if (values.baseline !== undefined) {
        runs.push(await runOnce(template, definitions, processes, values.baseline, "baseline"))
      }
    }
  } finally {
    await onAdmin(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)
  }
  const oneProcess = (server) => runs.find((run) => run.server === server)
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    load_average_before: loadBefore.map((x) => Math.round(x * 100) / 100),
    load_average_after: loadavg().map((x) => Math.round(x * 100) / 100),
    command: `node bench/multi.js${process.argv.length > 2 ? ` ${process.argv.slice(2).join(" ")}` : ""}`,
    duration_s: Math.round((Date.now() - started) / 1000),
    notes: [
      `Each virtual client (${values.clients}, spread over the servers) runs one seeded order's flow after another: ` +
      "POST /waves/create, POST /waves/start, GET /tasks?wave_id=, POST /tasks/:id/confirm per task (2), " +
      "POST /orders/:id/ship; orders/s counts the flows that ended within the measured seconds.",
      "Three webhooks (order_allocated, wave_started, order_shipped) post to a receiver in the benchmark's " +
      "process; every server runs the webhook worker. delivered: the distinct events it got, of `events` written.",
      `Lock waits: pg_stat_activity sampled every ${values["sample-ms"]} ms during the measured seconds; a ` +
      "sample counts when any session waits on a lock, on the events table's lock, or a writer waits behind " +
      "a LOCK TABLE events (pg_blocking_pids)."
    ],
    bin: values.bin,
    baseline: values.baseline ?? null,
    runs: runs.map((run) => ({
      ...run,
      vs_one_process: Math.round((run.orders_per_s / oneProcess(run.server).orders_per_s) * 100) / 100
    }))
  }
  mkdirSync(results, { recursive: true })
  writeFileSync(values.output, `${JSON.stringify(report, null, 2)}\n`)
  console.log(table(
    [
      "server",
      "processes",
      "orders/s",
      "req/s",
      "× 1 process",
      "flow p50 ms",
      "p99 ms",
      "events",
      "delivered",
      "drain ms",
      "samples",
      "lock waits",
      "on events",
      "behind LOCK TABLE"
    ],
    report.runs.map((r) => [
      r.server,
      r.processes,
      r.orders_per_s,
      r.requests_per_s,
      r.vs_one_process,
      r.flow_p50_ms,
      r.flow_p99_ms,
      r.events,
      r.delivered,
      r.drained_ms_after_load,
      r.locks.samples,
      r.locks.any_lock_wait,
      r.locks.events_lock_wait,
      r.locks.writer_behind_lock_table_events
    ])
  ))
  for (const run of report.runs) {
    for (const w of run.locks.waiting_statements) {
      console.log(`  ${run.server} ${run.processes}p waiting ${w.samples}×: ${w.query}`)
    }
  }
  console.log(`\n${report.command}: ${report.duration_s} s; written to ${values.output}`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
