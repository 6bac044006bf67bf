/**
 * Cycle counts and pick-face replenishment under concurrency across processes: 2 bundled servers
 * on one database take wave starts (allocating from faces and storage), pick confirmations (some
 * short) at faces and in storage, replenishment runs fired on every process at once, confirms and
 * cancels of the Replenish tasks, counts opened and planned, releases racing wave starts, one count
 * recorded from two handhelds at once, and approvals racing cancels and recounts.
 *
 * A watcher reads the database while the storm runs, to see that no claim and no movement task is
 * created from a location while a count holds it. Afterwards the database itself must show that
 * no unit was allocated or tasked twice, that no face ever had two open replenishments of a SKU,
 * that each count applied at most once and by exactly its variance, that a location is Counting
 * exactly while a count holds it, and that the ledger replays to the stock.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import type { Stock } from "@wms/core"
import { checkClaims, checkConservation, checkLedger, checkStock, checkTasks } from "@wms/core/testing"
import { Effect, Fiber } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import type { ServerProcess } from "../../../testing/processes.js"
import { stormDuration } from "../../../testing/properties.js"
import { assertStormHeld, must, startStorm, storeSql, type StormDatabase } from "../../../testing/storms.js"

const site = "main"
const processes = 2
const clientsPerProcess = 4
const actionsPerClient = 40
const stormMillis = stormDuration(6_000)
/** The answers that show the storm raced: waves started, faces replenished, counts released, recorded and applied. */
const raced = ["start 200", "pick 204", "confirm 204", "release 204", "record 204", "approve 204"]
const watchMillis = 100
const skus = ["C-1", "C-2", "C-3"]
/** Storage in the counted zone, each holding every SKU under a tag of its own. */
const storage = ["S-01", "S-02", "S-03", "S-04", "S-05"]
/** A pick face per SKU (PF-1 keeps two), filled below min by the picks the waves make. */
const faces = [
  { loc_id: "PF-1", sku_id: "C-1" },
  { loc_id: "PF-1", sku_id: "C-2" },
  { loc_id: "PF-2", sku_id: "C-2" },
  { loc_id: "PF-3", sku_id: "C-3" }
]
const faceLocations = [...new Set(faces.map((face) => face.loc_id))]
const setting = { min_qty: 4, max_qty: 10 }
/** A count line off by more than this many units waits for approval. */
const thresholdUnits = 2
const reasonCodes = ["Damaged", "Mispick", "Miscount", "Found", "Theft", "Other"]

const Counting = 22
const PendingApproval = 23
const Complete = 20

/** The documented statuses of each kind of request in the storm. */
const allowed: Record<string, ReadonlyArray<number>> = {
  order: [204],
  wave: [200, 404, 409],
  start: [200, 404, 409],
  pick: [204, 404],
  replenish: [200],
  confirm: [204, 400, 404, 409],
  cancel: [204, 404, 409],
  count: [201, 409],
  plan: [201],
  release: [204, 409],
  record: [204, 409],
  approve: [204, 409],
  recount: [204, 409],
  cancelCount: [204, 409]
}

interface CountLine {
  readonly sku_id: string
  readonly tag_id: string | null
  readonly expected?: number
  readonly in_flight?: number
  readonly qty_counted: number | null
  readonly variance?: number | null
}

/** What the watcher saw of the claims and movement tasks from a location, by id. */
interface Sources {
  readonly claims: ReadonlyArray<{ id: number; loc_id: string }>
  readonly tasks: ReadonlyArray<{ id: number; loc_id: string }>
}

const beingCounted = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ id: number; loc_id: string }>`SELECT id, loc_id FROM counts WHERE status_id IN (22, 23)`,
    (rows) => new Map(rows.map((row) => [Number(row.id), row.loc_id]))
  )

const sourcesNow = (sql: SqlClient.SqlClient) =>
  Effect.all({
    claims: sql<{ id: number; loc_id: string }>`SELECT cl.id, c.loc_id FROM claims cl
      JOIN contents c ON c.content_id = cl.content_id`,
    tasks: sql<{ id: number; loc_id: string }>`SELECT id, from_loc_id AS loc_id FROM movement_tasks`
  })

/**
 * Polls the database until `done()`: each poll reads the counts holding a location, then the
 * claims and tasks, then the counts again. A count seen holding its location before one poll's
 * read of the sources and still holding it after a later poll's read held it in between: a claim
 * or task from that location the later read shows and the earlier did not was made while it was
 * Counting. Answers one line per such claim or task.
 */
const watchFreeze = (done: () => boolean) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const problems: Array<string> = []
    const baseline = new Map<number, { loc_id: string; claims: Set<number>; tasks: Set<number> }>()
    let polls = 0
    while (!done()) {
      const before = yield* beingCounted(sql)
      const sources: Sources = yield* sourcesNow(sql)
      const after = yield* beingCounted(sql)
      polls++
      const from = (rows: Sources["claims"], locId: string) =>
        new Set(rows.filter((row) => row.loc_id === locId).map((row) => Number(row.id)))
      for (const [countId, locId] of after) {
        const seen = baseline.get(countId)
        if (seen === undefined) continue
        for (const id of from(sources.claims, locId)) {
          if (!seen.claims.has(id)) problems.push(`claim ${id} from ${locId} was made while count ${countId} held it`)
        }
        for (const id of from(sources.tasks, locId)) {
          if (!seen.tasks.has(id)) problems.push(`task ${id} from ${locId} was made while count ${countId} held it`)
        }
      }
      for (const [countId, locId] of before) {
        if (!baseline.has(countId)) {
          baseline.set(countId, {
            loc_id: locId,
            claims: from(sources.claims, locId),
            tasks: from(sources.tasks, locId)
          })
        }
      }
      yield* Effect.sleep(watchMillis)
    }
    return { problems: [...new Set(problems)], polls, counts: baseline.size }
  })

/** The invariants read from the database afterwards; each violation as one line. */
const violations = (countLines: ReadonlyMap<number, ReadonlyArray<CountLine>>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const problems: Array<string> = []
    const contents = yield* sql<{
      content_id: number
      sku_id: string
      client_id: string | null
      loc_id: string
      tag_id: string
      expiry_date: string | null
      created_datetime: string
      qty: number
      qty_allocated: number
      qty_tasked_from: number
    }>`SELECT content_id, sku_id, client_id, loc_id, tag_id, expiry_date, created_at AS created_datetime, qty,
      qty_allocated, qty_tasked_from FROM contents ORDER BY content_id`
    const ledger = yield* sql<{
      id: number
      content_id: number
      from_content_id: number | null
      transaction_type: Stock.TransactionType
      sku_id: string
      client_id: string | null
      to_loc_id: string
      qty: number
      notes: string | null
      created_at: string
    }>`SELECT id, content_id, from_content_id, transaction_type, sku_id, client_id, to_loc_id, qty, notes, created_at
      FROM inventory_transactions ORDER BY id`
    const claims = yield* sql<{ content_id: number; qty: number; status: string }>`SELECT content_id, qty, status
      FROM claims`
    const tasks = yield* sql<{
      id: number
      content_id: number
      quantity: number
      status_id: number
      sku_id: string
      tag_id: string
      to_loc_id: string
      task_type: "Putaway" | "Move" | "Replenish"
      created_at: string
    }>`SELECT id, content_id, qty AS quantity, status_id, sku_id, tag_id, to_loc_id, task_type, created_at
      FROM movement_tasks ORDER BY id`
    const counts = yield* sql<{ id: number; loc_id: string; status_id: number }>`SELECT id, loc_id, status_id
      FROM counts ORDER BY id`
    const locations = yield* sql<{ loc_id: string; status: string }>`SELECT loc_id, status FROM locations`

    // The stock rule, claims, tasks, conservation and the replay of the ledger, as the engine's own checkers see them.
    problems.push(
      ...checkStock(contents),
      ...checkLedger(contents, ledger),
      ...checkClaims(contents, claims),
      ...checkTasks(contents, tasks),
      ...checkConservation(contents, ledger)
    )

    // Replenishment exactly once: the tasks one decision opened (one creation time) for a SKU and
    // face are all over (a Replenish or Untask row) before the next decision's Task rows.
    const rowsOfTask = new Map<number, Array<{ id: number; type: string }>>()
    for (const row of ledger) {
      const task = /^Movement task (\d+)$/.exec(row.notes ?? "")
      if (task === null) continue
      const rows = rowsOfTask.get(Number(task[1])) ?? []
      rows.push({ id: Number(row.id), type: row.transaction_type })
      rowsOfTask.set(Number(task[1]), rows)
    }
    const decisions = new Map<string, Map<string, { opened: number; over: number }>>()
    for (const task of tasks.filter((t) => t.task_type === "Replenish")) {
      const face = `${task.sku_id} at ${task.to_loc_id}`
      const rows = rowsOfTask.get(Number(task.id)) ?? []
      const opened = Math.min(...rows.filter((r) => r.type === "Task").map((r) => r.id))
      const ends = rows.filter((r) => r.type !== "Task").map((r) => r.id)
      const over = task.status_id === 1 ? Infinity : Math.max(...ends)
      const ofFace = decisions.get(face) ?? new Map<string, { opened: number; over: number }>()
      const decision = ofFace.get(task.created_at) ?? { opened: Infinity, over: -Infinity }
      ofFace.set(task.created_at, { opened: Math.min(decision.opened, opened), over: Math.max(decision.over, over) })
      decisions.set(face, ofFace)
    }
    for (const [face, ofFace] of decisions) {
      const ordered = [...ofFace.values()].sort((a, b) => a.opened - b.opened)
      for (let i = 1; i < ordered.length; i++) {
        if (ordered[i - 1].over > ordered[i].opened) {
          problems.push(`${face}: a replenishment opened (ledger row ${ordered[i].opened}) while another was open`)
        }
      }
      const open = [...ofFace.values()].filter((decision) => decision.over === Infinity).length
      if (open > 1) problems.push(`${face} has ${open} open replenishments`)
    }

    // A count applies once, by its variance: its Count rows are one transaction's (one time), at
    // most one per content, and only when Complete; they sum to the variance of its lines.
    const countRows = new Map<number, Array<(typeof ledger)[number]>>()
    for (const row of ledger) {
      const count = /^Count (\d+)$/.exec(row.notes ?? "")
      if (count === null) continue
      const rows = countRows.get(Number(count[1])) ?? []
      rows.push(row)
      countRows.set(Number(count[1]), rows)
    }
    for (const count of counts) {
      const id = Number(count.id)
      const rows = countRows.get(id) ?? []
      const applied = rows.filter((row) => row.transaction_type === "Count")
      if (count.status_id !== Complete) {
        if (rows.length > 0) problems.push(`count ${id} (status ${count.status_id}) wrote ${rows.length} ledger rows`)
        continue
      }
      if (new Set(rows.map((row) => row.created_at)).size > 1) {
        problems.push(`count ${id} wrote ledger rows at ${new Set(rows.map((row) => row.created_at)).size} times`)
      }
      const contentIds = applied.map((row) => row.content_id)
      if (new Set(contentIds).size !== contentIds.length) problems.push(`count ${id} changed a content twice`)
      const variance = (countLines.get(id) ?? []).reduce((sum, line) => sum + (line.variance ?? 0), 0)
      const booked = applied.reduce((sum, row) => sum + row.qty, 0)
      if (booked !== variance) {
        problems.push(`count ${id}: Count rows sum to ${booked}, its lines' variance ${variance}`)
      }
    }

    // A location is Counting exactly while a count holds it, and one count at a time.
    const holding = counts.filter((c) => c.status_id === Counting || c.status_id === PendingApproval)
    for (const location of locations) {
      const held = holding.filter((c) => c.loc_id === location.loc_id)
      if (held.length > 1) problems.push(`location ${location.loc_id} is held by ${held.length} counts`)
      if ((location.status === "Counting") !== (held.length === 1)) {
        problems.push(`location ${location.loc_id} is ${location.status}, held by ${held.length} counts`)
      }
    }
    return problems
  })

const countStorm = (database: StormDatabase) =>
  Effect.gen(function*() {
    const storm = yield* startStorm(database, { processes, site, allowed })
    const { first, next, pick, record, request, servers, tally } = storm
    const withSql = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provide(effect, storeSql(database)).pipe(Effect.orDie)

    const settings = { count_variance_threshold: { percent: null, units: thresholdUnits } }
    must(204, yield* request(first, "PUT", `/sites/${site}/settings`, settings), "settings")
    for (const [i, loc_id] of faceLocations.entries()) {
      const face = { loc_id, loc_type: "PickFace", zone: "F", sequence: i }
      must(201, yield* request(first, "POST", "/locations", face), `face ${loc_id}`)
    }
    for (const [i, loc_id] of storage.entries()) {
      const location = { loc_id, loc_type: "Storage", zone: "C", sequence: 10 + i }
      must(201, yield* request(first, "POST", "/locations", location), `location ${loc_id}`)
    }
    for (const sku_id of skus) {
      must(204, yield* request(first, "POST", "/skus", { sku_id, description: `Article ${sku_id}` }), `sku ${sku_id}`)
    }
    // The faces' stock first: the oldest, so waves allocate from the faces before storage.
    for (const { loc_id, sku_id } of faces) {
      must(204, yield* request(first, "PUT", `/pick-faces/${sku_id}/${loc_id}`, setting), `face ${sku_id}`)
      const stock = { sku_id, loc_id, tag_id: `T-${loc_id}-${sku_id}`, qty: setting.min_qty + 2 }
      must(204, yield* request(first, "POST", "/inventory/adjustments", stock), `stock of ${sku_id} at ${loc_id}`)
    }
    for (const loc_id of storage) {
      for (const sku_id of skus) {
        const stock = { sku_id, loc_id, tag_id: `T-${loc_id}-${sku_id}`, qty: 15 + Math.floor(next() * 10) }
        must(204, yield* request(first, "POST", "/inventory/adjustments", stock), `stock of ${sku_id} at ${loc_id}`)
      }
    }
    must(
      204,
      yield* request(first, "POST", "/wave-definitions", { description: "All", criterium_id: 5, pick_type: 1 }),
      "definition"
    )
    const definitionId = (yield* request(first, "GET", "/wave-definitions")).body[0].id as number

    /** Runs the requests at the same moment, each on its process. */
    const together = (...requests: ReadonlyArray<Effect.Effect<unknown>>) =>
      Effect.all(requests, { concurrency: "unbounded", discard: true })

    let orders = 0
    /** New demand, a wave of it, and its start (on another process than the create). */
    const wave = (s: number) =>
      Effect.gen(function*() {
        const order_id = `CO-${s}-${orders++}`
        const lines = skus.filter(() => next() < 0.5).map((sku_id) => ({ sku_id, qty: 1 + Math.floor(next() * 3) }))
        const order = { order_id, lines: lines.length === 0 ? [{ sku_id: pick(skus), qty: 2 }] : lines }
        record("order", s, `POST /orders ${order_id}`, yield* request(servers[s], "POST", "/orders", order))
        const created = yield* request(servers[s], "POST", "/waves/create", { wavedef_id: definitionId })
        if (record("wave", s, "POST /waves/create", created).status !== 200) return
        const other = (s + 1) % processes
        const started = yield* request(servers[other], "POST", "/waves/start", { wave_id: created.body.wave_id })
        record("start", other, `POST /waves/start ${created.body.wave_id}`, started)
      })

    /** The lines two handhelds count for a count: each snapshot tag a little off, now and then found stock. */
    const counted = (lines: ReadonlyArray<CountLine>, countId: number) => {
      const off = () => (next() < 0.5 ? 0 : Math.round((next() - 0.5) * 2 * (thresholdUnits + 2)))
      const tagged = lines.filter((line) => line.tag_id !== null && line.expected !== undefined)
      const body = tagged.map((line) => ({
        sku_id: line.sku_id,
        tag_id: line.tag_id,
        qty_counted: Math.max(0, (line.expected ?? 0) + (line.in_flight ?? 0) + off())
      }))
      if (body.length === 0 || next() < 0.15) {
        const found = { sku_id: pick(skus), tag_id: `F-${countId}`, qty_counted: 1 + Math.floor(next() * 4) }
        // Found stock recorded before is a line of the count now: a body names each SKU and tag once.
        if (!body.some((line) => line.sku_id === found.sku_id && line.tag_id === found.tag_id)) body.push(found)
      }
      return { lines: body }
    }

    const countsIn = (server: ServerProcess, status: number) =>
      Effect.map(request(server, "GET", `/counts?status=${status}`), (r) => r.body as Array<{ id: number }>)

    /** Two handhelds record one count at once, each its own figures, both `over` units more on the first line. */
    const recordTwice = (s: number, countId: number, over: number) =>
      Effect.gen(function*() {
        const other = (s + 1) % processes
        const shown = yield* request(servers[s], "GET", `/counts/${countId}`)
        const lines = (shown.body.lines ?? []) as ReadonlyArray<CountLine>
        const path = `/counts/${countId}/record`
        const [a, b] = [counted(lines, countId), counted(lines, countId)]
        // Off by `over` from what should be there, whatever the rest of the line's figures were.
        const should = (lines[0]?.expected ?? 0) + (lines[0]?.in_flight ?? 0)
        for (const body of [a, b]) {
          const first = body.lines[0]
          if (over > 0) {
            body.lines[0] = { ...first, qty_counted: (first.tag_id === lines[0]?.tag_id ? should : 0) + over }
          }
        }
        yield* together(
          Effect.map(
            request(servers[s], "POST", path, a),
            (r) => record("record", s, `${path} ${JSON.stringify(a)}`, r)
          ),
          Effect.map(
            request(servers[other], "POST", path, b),
            (r) => record("record", other, `${path} ${JSON.stringify(b)}`, r)
          )
        )
      })

    /** An approval racing a cancel or a recount of the same count. */
    const decide = (s: number, countId: number, cancelling: boolean) => {
      const other = (s + 1) % processes
      const approve = `/counts/${countId}/approve`
      const racing = cancelling
        ? Effect.map(
          request(servers[other], "DELETE", `/counts/${countId}`),
          (r) => record("cancelCount", other, `DELETE /counts/${countId}`, r)
        )
        : Effect.map(
          request(servers[other], "POST", `/counts/${countId}/recount`),
          (r) => record("recount", other, `/counts/${countId}/recount`, r)
        )
      return together(
        Effect.map(
          request(servers[s], "POST", approve, { reason_code: pick(reasonCodes) }),
          (r) => record("approve", s, approve, r)
        ),
        racing
      )
    }

    const goesOn = storm.lasting({ actions: actionsPerClient, millis: stormMillis, needed: raced })
    const client = (s: number) =>
      Effect.gen(function*() {
        const server = servers[s]
        const other = (s + 1) % processes
        for (let n = 0; goesOn(n); n++) {
          const roll = next()
          if (roll < 0.15) {
            yield* wave(s)
          } else if (roll < 0.3) {
            const open = (yield* request(server, "GET", "/tasks")).body as Array<{ id: number; quantity: number }>
            const task = pick(open)
            if (task === undefined) continue
            const body = next() < 0.8 ? {} : { qty: Math.floor(next() * task.quantity) }
            const confirmed = yield* request(server, "POST", `/tasks/${task.id}/confirm`, body)
            record("pick", s, `POST /tasks/${task.id}/confirm ${JSON.stringify(body)}`, confirmed)
          } else if (roll < 0.38) {
            // Every process runs replenishment at the same moment.
            yield* together(
              ...servers.map((other, i) =>
                Effect.map(
                  request(other, "POST", "/replenishments/run", {}),
                  (run) => record("replenish", i, "POST /replenishments/run", run)
                )
              )
            )
          } else if (roll < 0.5) {
            const open = yield* request(server, "GET", "/movement-tasks")
            const task = pick(open.body as Array<{ id: number; quantity: number }>)
            if (task === undefined) continue
            if (next() < 0.75) {
              const body = next() < 0.7 ? {} : { qty: 1 + Math.floor(next() * task.quantity) }
              const confirmed = yield* request(server, "POST", `/movement-tasks/${task.id}/confirm`, body)
              record("confirm", s, `confirm ${task.id} ${JSON.stringify(body)}`, confirmed)
            } else {
              record("cancel", s, `cancel ${task.id}`, yield* request(server, "DELETE", `/movement-tasks/${task.id}`))
            }
          } else if (roll < 0.58) {
            if (next() < 0.5) {
              const loc_id = pick([...storage, ...faceLocations])
              record("count", s, `POST /counts ${loc_id}`, yield* request(server, "POST", "/counts", { loc_id }))
            } else {
              const planned = yield* request(server, "POST", "/counts/plan", { zone: "C", max: 2 })
              record("plan", s, "POST /counts/plan", planned)
            }
          } else if (roll < 0.68) {
            // A release on two processes, beside a wave start that wants the same stock.
            const count = pick(yield* countsIn(server, 1))
            if (count === undefined) continue
            const path = `/counts/${count.id}/release`
            yield* together(
              Effect.map(request(server, "POST", path), (r) => record("release", s, path, r)),
              Effect.map(request(servers[other], "POST", path), (r) => record("release", other, path, r)),
              wave((s + 2) % processes)
            )
          } else if (roll < 0.85) {
            const count = pick(yield* countsIn(server, Counting))
            if (count !== undefined) yield* recordTwice(s, count.id, 0)
          } else {
            const count = pick(yield* countsIn(server, PendingApproval))
            if (count !== undefined) yield* decide(s, count.id, next() < 0.5)
          }
        }
      })

    let stormOver = false
    const watcher = yield* Effect.fork(withSql(watchFreeze(() => stormOver)))
    yield* Effect.all(
      Array.from({ length: processes * clientsPerProcess }, (_, i) => client(i % processes)),
      { concurrency: "unbounded" }
    )
    // Last, every count still being counted is recorded off by more than the threshold and decided
    // (an approval racing a recount), and what a recount reopened is recorded and approved.
    const still = (status: number) => Effect.map(countsIn(first, status), (counts) => counts.map((c) => c.id))
    for (const planned of (yield* request(first, "POST", "/counts/plan", { zone: "C", max: 1 })).body) {
      record(
        "release",
        0,
        `/counts/${planned.id}/release`,
        yield* request(first, "POST", `/counts/${planned.id}/release`)
      )
    }
    for (const [i, countId] of (yield* still(Counting)).entries()) {
      yield* recordTwice(i % processes, countId, thresholdUnits + 1)
    }
    for (const [i, countId] of (yield* still(PendingApproval)).entries()) yield* decide(i % processes, countId, false)
    for (const [i, countId] of (yield* still(Counting)).entries()) {
      yield* recordTwice(i % processes, countId, thresholdUnits + 1)
    }
    for (const countId of yield* still(PendingApproval)) {
      const approved = yield* request(first, "POST", `/counts/${countId}/approve`, { reason_code: "Other" })
      record("approve", 0, `/counts/${countId}/approve`, approved)
    }
    stormOver = true
    const freeze = yield* Fiber.join(watcher)

    // Each count's lines as an admin sees them (with their variance), for the Count rows to sum to.
    const all = (yield* request(first, "GET", "/counts?limit=1000")).body as Array<{ id: number; status_id: number }>
    const countLines = new Map<number, ReadonlyArray<CountLine>>()
    for (const count of all.filter((c) => c.status_id === Complete)) {
      countLines.set(count.id, (yield* request(first, "GET", `/counts/${count.id}`)).body.lines)
    }
    const problems = yield* withSql(violations(countLines))
    const summary = `watcher ${freeze.polls} polls over ${freeze.counts} counts; ${storm.summary()}`
    assertStormHeld(storm, [...freeze.problems, ...problems], summary)
    for (const done of raced) assert.isAbove(tally.get(done) ?? 0, 0, `${done}: ${summary}`)
    assert.isAbove(countLines.size, 0, summary)
    assert.isAbove(freeze.counts, 0, summary)
  })

describe("cycle counts and replenishment across 2 server processes on one database", () => {
  it.live(
    "PostgreSQL: counts racing waves, picks and replenishment apply once, freeze their location and never double a replenishment",
    () => Effect.flatMap(freshPgDatabase, (url) => countStorm({ kind: "pg", url })).pipe(Effect.scoped),
    { timeout: 150_000 }
  )

  it.live(
    "SQLite: counts racing waves, picks and replenishment apply once, freeze their location and never double a replenishment",
    () => Effect.flatMap(freshSqliteFile, (filename) => countStorm({ kind: "sqlite", filename })).pipe(Effect.scoped),
    { timeout: 150_000 }
  )
})
