/**
 * One engine measurement of the warehouse cycle, in its own process so that its peak RSS is its
 * own: `putaway` receives the seeded pre-advice with `putaway: true` through the real `Receiving`
 * service (one transaction); `moves` creates and confirms each move through the real
 * `MovementTasks` service, each call its own transaction as an API client's would be; `count`
 * plans the counts of a zone, then releases and records each through the real `Counts` service
 * (every call its own transaction); `replenish` runs the replenishment of every face through the
 * real `Replenishment` service (one transaction). Then it runs the bench's checks and sends the
 * result to the parent over IPC.
 */
import { SqlClient } from "@effect/sql"
import { Administration, Counts, MovementTasks, Receiving, Replenishment } from "@wms/core"
import { Warehouse } from "@wms/http"
import { Effect, Layer, Option } from "effect"
import { performance } from "node:perf_hooks"
import { ADMIN_EMAIL } from "../wave/data.js"
import { checks, COUNT_ZONE, countedQty, digest, movePlan, PRE_ADVICE_ID, SITE } from "./data.js"

const [database, bench, size] = [process.argv[2], process.argv[3], Number(process.argv[4])]

/** Runs `work` on the clock: wall and CPU time of this process. */
const timed = (work) =>
  Effect.gen(function*() {
    const cpu = process.cpuUsage()
    const t0 = performance.now()
    const answer = yield* work
    const ms = performance.now() - t0
    const { system, user } = process.cpuUsage(cpu)
    return { answer, ms, cpuMs: (user + system) / 1000 }
  })

const putaway = (actor) =>
  Effect.gen(function*() {
    const receiving = yield* Receiving
    const { answer, cpuMs, ms } = yield* timed(receiving.receive(actor, PRE_ADVICE_ID, { lines: null, putaway: true }))
    const report = Option.getOrThrow(answer)
    return { ms, cpuMs, unplaced: report.unplaced.reduce((sum, u) => sum + u.qty, 0) }
  })

const moves = (actor) =>
  Effect.gen(function*() {
    const movementTasks = yield* MovementTasks
    const sql = yield* SqlClient.SqlClient
    const plan = movePlan(yield* sql`SELECT content_id, loc_id FROM contents ORDER BY content_id`, size)
    const { cpuMs, ms } = yield* timed(Effect.forEach(plan, (move) =>
      Effect.flatMap(
        movementTasks.create(actor, { ...move, sku_id: null, from_loc_id: null, tag_id: null, reason: null }),
        (task) => movementTasks.confirm(actor, task.id, { qty: null, to_loc_id: null })
      ), { discard: true }))
    return { ms, cpuMs }
  })

const count = (actor) =>
  Effect.gen(function*() {
    const counts = yield* Counts
    return yield* timed(Effect.gen(function*() {
      const planned = yield* counts.plan(actor, { zone: COUNT_ZONE, loc_type: null, max: size / 10 })
      for (const { id } of planned) yield* counts.release(actor, id)
      for (const { id } of planned) {
        const { lines } = yield* counts.get(actor, id)
        const counted = lines.map((line, i) => ({
          sku_id: line.sku_id,
          tag_id: line.tag_id,
          qty_counted: countedQty(line.expected, id * 10 + i),
          expiry_date: null
        }))
        yield* counts.record(actor, id, { lines: counted })
      }
    }))
  })

const replenish = (actor) =>
  Effect.gen(function*() {
    const replenishment = yield* Replenishment
    return yield* timed(replenishment.run(actor, { sku_id: null, zone: null }))
  })

const measured = { putaway, moves, count, replenish }

const program = Effect.gen(function*() {
  const administration = yield* Administration
  const sql = yield* SqlClient.SqlClient
  // The admin as a login would name it, without logging in: scrypt's 128 MiB would be the peak RSS.
  const [admin] = yield* sql`SELECT user_id, site_id FROM users WHERE email = ${ADMIN_EMAIL}`
  const actor = yield* administration.actorFor(
    { userId: admin.user_id, admin: true, site: admin.site_id, client: null },
    SITE
  )
  const rssBeforeKiB = process.resourceUsage().maxRSS
  const { answer: _, ...result } = yield* measured[bench](actor)
  const peakRssKiB = process.resourceUsage().maxRSS
  const [counts] = yield* sql.unsafe(checks[bench].counts)
  const rows = yield* Effect.forEach(checks[bench].rows, (text) => sql.unsafe(text))
  return { ...result, counts, digest: digest(rows), rssBeforeKiB, peakRssKiB }
})

const layer = MovementTasks.Default.pipe(Layer.provideMerge(Warehouse.layer({ database })))

Effect.runPromise(program.pipe(Effect.provide(layer), Effect.scoped)).then(
  (result) => process.send({ ok: true, result }, () => process.exit(0)),
  (error) => process.send({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1))
)
