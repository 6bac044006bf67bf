/**
 * Movement tasks under concurrency across processes: 2 bundled servers on one database take
 * receipts with putaway into a few small storage locations, moves of the same stock, confirms
 * (whole, partial, to another location) and cancels of the same tasks, location blocks, and wave
 * starts on that stock, replenishment runs of a pick face the starts allocate from, all at once.
 * Afterwards the database itself must show that no unit was tasked twice, nor both tasked and
 * allocated, that no location took more tags than it holds, that no face has two open
 * replenishments of a SKU or a level above its max, and that the ledger replays to the stock.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Stock } from "@wms/core"
import { Effect } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import { stormDuration } from "../../../testing/properties.js"
import { assertStormHeld, must, startStorm, storeSql, type StormDatabase } from "../../../testing/storms.js"

const site = "main"
const processes = 2
const clientsPerProcess = 4
const actionsPerClient = 40
const stormMillis = stormDuration(5_000)
/** The answers that show the storm raced: putaways, moves and confirms went through while others were refused. */
const raced = ["receive 200", "move 201", "confirm 204", "replenish 200"]
const skus = ["M-1", "M-2", "M-3"]
const fullPallet = 6
/** Storage locations, each room for two tags: putaways and moves fight for them. */
const storage = ["ST-01", "ST-02", "ST-03", "ST-04", "ST-05"]
/** Unmanaged places stock may also be moved to: no capacity, no status. */
const floors = ["FLOOR-1", "FLOOR-2"]
/** The pick face of every SKU: putaway's rest, replenishment runs and wave starts meet there. */
const face = { loc_id: "PF-1", min_qty: 6, max_qty: 12 }
/** Reserve storage, walked last by putaway, holding stock for replenishment from the start. */
const reserve = { loc_id: "R-1", loc_type: "Storage", sequence: 99 }

/** The documented statuses of each kind of request in the storm. */
const allowed: Record<string, ReadonlyArray<number>> = {
  preadvice: [204],
  receive: [200],
  putaway: [201, 404, 409],
  move: [201, 400, 409],
  confirm: [204, 400, 404, 409],
  cancel: [204, 404, 409],
  block: [204],
  start: [200, 404, 409],
  replenish: [200]
}

/** The invariants of stock, tasks, claims, capacity and ledger, read from the database; each violation as one line. */
const violations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const problems: Array<string> = []
  const contents = yield* sql<{
    content_id: number
    sku_id: string
    loc_id: string
    tag_id: string
    qty: number
    qty_allocated: number
    qty_tasked_from: number
  }>`SELECT content_id, sku_id, loc_id, tag_id, qty, qty_allocated, qty_tasked_from FROM contents`
  const tasks = yield* sql<{
    id: number
    content_id: number
    sku_id: string
    qty: number
    status_id: number
    to_loc_id: string
    task_type: string
    created_at: string
  }>`SELECT id, content_id, sku_id, qty, status_id, to_loc_id, task_type, created_at FROM movement_tasks`
  const claims = yield* sql<{ content_id: number; qty: number }>`SELECT content_id, qty FROM claims
    WHERE status = 'allocated'`
  const ledger = yield* sql<{
    content_id: number
    from_content_id: number | null
    transaction_type: Stock.TransactionType
    sku_id: string
    qty: number
    notes: string | null
  }>`SELECT content_id, from_content_id, transaction_type, sku_id, qty, notes FROM inventory_transactions
    ORDER BY id`
  const limits = yield* sql<{ loc_id: string; max_tags: number }>`SELECT loc_id, max_tags FROM locations
    WHERE max_tags IS NOT NULL`

  const sum = <A>(rows: ReadonlyArray<A>, key: (row: A) => number | string, qty: (row: A) => number) => {
    const totals = new Map<number | string, number>()
    for (const row of rows) totals.set(key(row), (totals.get(key(row)) ?? 0) + qty(row))
    return totals
  }
  const open = tasks.filter((task) => task.status_id === 1)
  const taskedByContent = sum(open, (t) => t.content_id, (t) => t.qty)
  const claimedByContent = sum(claims, (c) => c.content_id, (c) => c.qty)
  const replayed = Stock.replay(ledger)
  for (const content of contents) {
    const id = content.content_id
    if (!Stock.isValid(content) || content.qty < 0) {
      problems.push(`content ${id} breaks 0 ≤ allocated + tasked ≤ qty: ${JSON.stringify(content)}`)
    }
    if (content.qty_tasked_from !== (taskedByContent.get(id) ?? 0)) {
      problems.push(`content ${id}: qty_tasked_from ${content.qty_tasked_from}, open tasks ${taskedByContent.get(id)}`)
    }
    if (content.qty_allocated !== (claimedByContent.get(id) ?? 0)) {
      problems.push(`content ${id}: qty_allocated ${content.qty_allocated}, open claims ${claimedByContent.get(id)}`)
    }
    const replay = replayed.get(id) ?? { qty: 0, qty_allocated: 0, qty_tasked_from: 0 }
    if (
      replay.qty !== content.qty || replay.qty_allocated !== content.qty_allocated ||
      replay.qty_tasked_from !== content.qty_tasked_from
    ) {
      problems.push(`content ${id}: ${JSON.stringify(content)}, the ledger replays to ${JSON.stringify(replay)}`)
    }
  }

  // Stock enters by receipts and adjustments and leaves by picks and losses; movements net to zero.
  const entered = sum(ledger, (t) => t.sku_id, (t) => {
    switch (t.transaction_type) {
      case "Receipt":
      case "Adjustment":
        return t.qty
      case "Pick":
      case "Lost":
        return -t.qty
      default:
        return 0
    }
  })
  for (const [sku, qty] of sum(contents, (c) => c.sku_id, (c) => c.qty)) {
    if (qty !== (entered.get(sku) ?? 0)) problems.push(`SKU ${sku}: ${qty} in stock, ${entered.get(sku)} by the ledger`)
  }

  // A task reserves once (Task), and ends once: moved (one movement row) or released (Untask).
  const rowsOfTask = new Map<number, Array<string>>()
  for (const t of ledger) {
    const task = /^Movement task (\d+)$/.exec(t.notes ?? "")
    if (task === null) continue
    const rows = rowsOfTask.get(Number(task[1])) ?? []
    rows.push(t.transaction_type)
    rowsOfTask.set(Number(task[1]), rows)
  }
  for (const task of tasks) {
    const rows = (rowsOfTask.get(task.id) ?? []).sort().join(",")
    const expected = task.status_id === 1
      ? ["Task"]
      : task.status_id === 21
      ? ["Task,Untask"]
      : [
        "Move,Task",
        "Move,Task,Untask",
        "Putaway,Task",
        "Putaway,Task,Untask",
        "Replenish,Task",
        "Replenish,Task,Untask"
      ]
    if (!expected.includes(rows)) problems.push(`task ${task.id} (status ${task.status_id}) has ledger rows ${rows}`)
  }

  // No location holds more tags than it may, counting the tags on their way to it.
  for (const { loc_id, max_tags } of limits) {
    const tags = new Set([
      ...contents.filter((c) => c.loc_id === loc_id && c.qty > 0).map((c) => c.tag_id),
      ...open.filter((t) => t.to_loc_id === loc_id).map((t) =>
        contents.find((c) => c.content_id === t.content_id)!.tag_id
      )
    ])
    if (tags.size > max_tags) problems.push(`location ${loc_id} holds ${tags.size} tags, room for ${max_tags}`)
  }

  // One open replenishment (the tasks of one decision) per SKU and face, and no level above max.
  for (const sku of skus) {
    const replenishing = open.filter((t) =>
      t.task_type === "Replenish" && t.sku_id === sku && t.to_loc_id === face.loc_id
    )
    if (new Set(replenishing.map((t) => t.created_at)).size > 1) {
      problems.push(`face ${face.loc_id} has ${replenishing.length} open replenishments of ${sku}`)
    }
    const atFace = contents.filter((c) => c.sku_id === sku && c.loc_id === face.loc_id)
    const level = atFace.reduce((n, c) => n + c.qty - c.qty_allocated, 0) +
      open.filter((t) => t.sku_id === sku && t.to_loc_id === face.loc_id).reduce((n, t) => n + t.qty, 0)
    if (level > face.max_qty) problems.push(`face ${face.loc_id} holds a level of ${level} of ${sku}`)
  }
  return problems
})

const movementStorm = (database: StormDatabase) =>
  Effect.gen(function*() {
    const storm = yield* startStorm(database, { processes, site, allowed })
    const { first, next, pick, record, request, servers, tally } = storm

    const location = (loc_id: string, status: string) => ({
      loc_id,
      loc_type: "Storage",
      zone: "Z",
      sequence: storage.indexOf(loc_id),
      max_tags: 2,
      status
    })
    for (const loc_id of storage) {
      must(201, yield* request(first, "POST", "/locations", location(loc_id, "Active")), `location ${loc_id}`)
    }
    must(
      201,
      yield* request(first, "POST", "/locations", { loc_id: face.loc_id, loc_type: "PickFace", max_tags: 4 }),
      "face"
    )
    must(201, yield* request(first, "POST", "/locations", reserve), "reserve")
    for (const sku_id of skus) {
      const sku = { sku_id, description: `Article ${sku_id}`, qty_on_full_pallet: fullPallet }
      must(204, yield* request(first, "POST", "/skus", sku), `sku ${sku_id}`)
      const setting = { min_qty: face.min_qty, max_qty: face.max_qty }
      must(204, yield* request(first, "PUT", `/pick-faces/${sku_id}/${face.loc_id}`, setting), `face of ${sku_id}`)
      // Stock on the floor for moves and waves to share, and in reserve for the face.
      for (const floor of [...floors, reserve.loc_id]) {
        const stock = { sku_id, loc_id: floor, qty: 10 + Math.floor(next() * 10) }
        must(204, yield* request(first, "POST", "/inventory/adjustments", stock), `stock of ${sku_id}`)
      }
      const order = { order_id: `MO-${sku_id}`, lines: [{ sku_id, qty: 8 }] }
      must(204, yield* request(first, "POST", "/orders", order), `order of ${sku_id}`)
    }
    must(
      204,
      yield* request(first, "POST", "/wave-definitions", { description: "All", criterium_id: 5, pick_type: 1 }),
      "definition"
    )
    const definitions = yield* request(first, "GET", "/wave-definitions")
    const definitionId = definitions.body[0].id as number

    let receipts = 0
    const goesOn = storm.lasting({ actions: actionsPerClient, millis: stormMillis, needed: raced })
    const client = (s: number) =>
      Effect.gen(function*() {
        const server = servers[s]
        for (let n = 0; goesOn(n); n++) {
          const roll = next()
          if (roll < 0.2) {
            const id = `PA-${s}-${n}-${receipts++}`
            const created = yield* request(server, "POST", "/preadvices", {
              pre_advice_id: id,
              lines: [{ sku_id: pick(skus), qty: 1 + Math.floor(next() * 2 * fullPallet) }]
            })
            if (record("preadvice", s, `POST /preadvices ${id}`, created).status !== 204) continue
            const received = yield* request(server, "POST", `/preadvices/${id}/receive`, { putaway: true })
            record("receive", s, `receive ${id}`, received)
          } else if (roll < 0.3) {
            const contents = yield* request(server, "GET", "/inventory/overview")
            const atReceiving = (contents.body as Array<{ content_id: number; loc_id: string }>).filter((c) =>
              c.loc_id === "RECEIVING"
            )
            if (atReceiving.length === 0) continue
            const body = { content_id: pick(atReceiving).content_id }
            record("putaway", s, `putaway ${body.content_id}`, yield* request(server, "POST", "/putaway-tasks", body))
          } else if (roll < 0.5) {
            const contents = yield* request(server, "GET", "/inventory/overview")
            const content = pick(contents.body as Array<{ content_id: number }>)
            if (content === undefined) continue
            const body = {
              content_id: content.content_id,
              qty: 1 + Math.floor(next() * 6),
              to_loc_id: pick([...storage, ...floors])
            }
            record("move", s, `move ${JSON.stringify(body)}`, yield* request(server, "POST", "/movement-tasks", body))
          } else if (roll < 0.75) {
            const open = yield* request(server, "GET", "/movement-tasks")
            const task = pick(open.body as Array<{ id: number; quantity: number }>)
            if (task === undefined) continue
            const way = next()
            const body = way < 0.6
              ? {}
              : way < 0.8
              ? { qty: 1 + Math.floor(next() * task.quantity) }
              : { to_loc_id: pick([...storage, ...floors]) }
            const confirmed = yield* request(server, "POST", `/movement-tasks/${task.id}/confirm`, body)
            record("confirm", s, `confirm ${task.id} ${JSON.stringify(body)}`, confirmed)
          } else if (roll < 0.85) {
            const open = yield* request(server, "GET", "/movement-tasks")
            const task = pick(open.body as Array<{ id: number }>)
            if (task === undefined) continue
            record("cancel", s, `cancel ${task.id}`, yield* request(server, "DELETE", `/movement-tasks/${task.id}`))
          } else if (roll < 0.88) {
            const body = next() < 0.5 ? {} : { sku_id: pick(skus) }
            const run = yield* request(server, "POST", "/replenishments/run", body)
            record("replenish", s, `run ${JSON.stringify(body)}`, run)
          } else if (roll < 0.93) {
            const loc_id = pick(storage)
            const status = pick(["Active", "Blocked Out", "Blocked In"])
            const blocked = yield* request(server, "PUT", `/locations/${loc_id}`, location(loc_id, status))
            record("block", s, `PUT /locations/${loc_id} ${status}`, blocked)
          } else {
            const created = yield* request(server, "POST", "/waves/create", { wavedef_id: definitionId })
            if (created.status !== 200) continue
            const started = yield* request(server, "POST", "/waves/start", { wave_id: created.body.wave_id })
            record("start", s, "POST /waves/start", started)
          }
        }
      })
    yield* Effect.all(
      Array.from({ length: processes * clientsPerProcess }, (_, i) => client(i % processes)),
      { concurrency: "unbounded" }
    )

    const problems = yield* Effect.provide(violations, storeSql(database)).pipe(Effect.orDie)
    const summary = storm.summary()
    assertStormHeld(storm, problems, summary)
    for (const done of raced) assert.isAbove(tally.get(done) ?? 0, 0, summary)
  })

describe("movement tasks across 2 server processes on one database", () => {
  it.live(
    "PostgreSQL: putaways, moves, confirms, cancels, wave starts and replenishment runs never task a unit twice nor overfill a face",
    () => Effect.flatMap(freshPgDatabase, (url) => movementStorm({ kind: "pg", url })).pipe(Effect.scoped),
    { timeout: 150_000 }
  )

  it.live(
    "SQLite: putaways, moves, confirms, cancels, wave starts and replenishment runs never task a unit twice nor overfill a face",
    () =>
      Effect.flatMap(freshSqliteFile, (filename) => movementStorm({ kind: "sqlite", filename })).pipe(Effect.scoped),
    { timeout: 150_000 }
  )
})
