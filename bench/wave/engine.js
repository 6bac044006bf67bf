/**
 * One engine measurement, in its own process so that its peak RSS is its own: creates a wave
 * from the seeded definition and starts it through the real `Waves` service, timing each, then
 * counts what the start wrote. Sends the result to the parent over IPC.
 */
import { SqlClient } from "@effect/sql"
import { Administration, Waves } from "@wms/core"
import { Warehouse } from "@wms/http"
import { Effect, Layer, Tracer } from "effect"
import { writeFileSync } from "node:fs"
import { performance } from "node:perf_hooks"
import { ADMIN_EMAIL, ADMIN_PASSWORD, SITE } from "./data.js"

const [database, definitionId] = [process.argv[2], Number(process.argv[3])]

/**
 * Sets the process's peak RSS back to its current RSS (Linux: `5` in `/proc/self/clear_refs`), so
 * that the peak read after the start is the start's own, not the login's scrypt or the create's;
 * false where that is not possible, and the peak is then the process's.
 */
const resetPeakRss = () => {
  try {
    writeFileSync("/proc/self/clear_refs", "5")
    return true
  } catch {
    return false
  }
}

/** Total time per span name of the start: @effect/sql's `sql.transaction` and `sql.execute` (the engine opens none). */
const spanTotals = new Map()
let recording = false
const tracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind) => {
    const cpuAtStart = recording ? process.cpuUsage() : undefined
    return {
      _tag: "Span",
      name,
      parent,
      context,
      startTime,
      kind,
      spanId: String(Math.random()),
      traceId: parent._tag === "Some" ? parent.value.traceId : "bench",
      sampled: true,
      status: { _tag: "Started", startTime },
      attributes: new Map(),
      links: [...links],
      end(endTime) {
        if (!recording || cpuAtStart === undefined) return
        const cpu = process.cpuUsage(cpuAtStart)
        const total = spanTotals.get(name) ?? { count: 0, ms: 0, cpuMs: 0 }
        total.count += 1
        total.ms += Number(endTime - startTime) / 1e6
        total.cpuMs += (cpu.user + cpu.system) / 1000
        spanTotals.set(name, total)
      },
      attribute() {},
      event() {},
      addLinks() {}
    }
  },
  context: (f) => f()
})

const program = Effect.gen(function*() {
  const administration = yield* Administration
  const waves = yield* Waves
  const sql = yield* SqlClient.SqlClient
  const { user } = yield* administration.authenticate(ADMIN_EMAIL, ADMIN_PASSWORD)
  const actor = yield* administration.actorFor(
    { userId: user.userId, admin: user.admin, site: user.site, client: user.client },
    SITE
  )
  const rssBeforeKiB = process.resourceUsage().maxRSS
  const t0 = performance.now()
  const created = yield* waves.create(actor, definitionId)
  const processPeakKiB = process.resourceUsage().maxRSS
  const peakReset = resetPeakRss()
  const rssBeforeStartKiB = process.memoryUsage().rss / 1024
  const t1 = performance.now()
  const cpu = process.cpuUsage()
  recording = true
  const started = yield* waves.start(actor, created.wave_id)
  const t2 = performance.now()
  const { user: userUs, system: systemUs } = process.cpuUsage(cpu)
  recording = false
  const startPeakRssKiB = process.resourceUsage().maxRSS
  const peakRssKiB = Math.max(processPeakKiB, startPeakRssKiB)
  const [counts] = yield* sql`SELECT
      (SELECT CAST(count(*) AS INTEGER) FROM wave_orders WHERE wave_id = ${created.wave_id}) AS wave_orders,
      (SELECT CAST(count(*) AS INTEGER) FROM claimsets WHERE wave_id = ${created.wave_id}) AS claimsets,
      (SELECT CAST(count(*) AS INTEGER) FROM claims WHERE wave_id = ${created.wave_id}) AS claims,
      (SELECT CAST(COALESCE(sum(qty), 0) AS INTEGER) FROM claims WHERE wave_id = ${created.wave_id}) AS qty,
      (SELECT CAST(count(DISTINCT content_id) AS INTEGER) FROM claims WHERE wave_id = ${created.wave_id}) AS contents,
      (SELECT CAST(count(*) AS INTEGER) FROM inventory_transactions
        WHERE transaction_type = 'Allocate') AS transactions,
      (SELECT CAST(count(*) AS INTEGER) FROM events) AS events`
  return {
    createMs: t1 - t0,
    startMs: t2 - t1,
    startCpuMs: (userUs + systemUs) / 1000,
    messages: [created.message, started.message],
    counts,
    rssBeforeKiB,
    peakRssKiB,
    peakReset,
    rssBeforeStartKiB,
    startPeakRssKiB,
    spans: Object.fromEntries(
      [...spanTotals].sort((a, b) => b[1].ms - a[1].ms).map(([name, { count, ms, cpuMs }]) => [
        name,
        { count, ms: Math.round(ms), cpu_ms: Math.round(cpuMs) }
      ])
    )
  }
})

Effect.runPromise(
  program.pipe(Effect.provide(Warehouse.layer({ database })), Effect.scoped, Effect.provide(Layer.setTracer(tracer)))
).then(
  (result) => process.send({ ok: true, result }, () => process.exit(0)),
  (error) => process.send({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1))
)
