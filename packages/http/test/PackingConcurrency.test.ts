/**
 * Packing under concurrency across processes (spec §5): 2 bundled servers on one PostgreSQL
 * database create shipping units of the same picked order lines, pack more into them, unpack,
 * close and ship, all at once. Afterwards the database itself must show that no order line has
 * more packed than picked, that every SSCC is unique on the site with a valid check digit, and
 * that every unit of a shipped order is Shipped.
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { isValidSscc } from "@wms/core"
import { Effect } from "effect"
import { freshPgDatabase } from "../../../testing/databases.js"
import type { ServerProcess } from "../../../testing/processes.js"
import { stormDuration } from "../../../testing/properties.js"
import { assertStormHeld, must, startStorm, storeSql, type StormDatabase } from "../../../testing/storms.js"

const site = "main"
const processes = 2
const clientsPerProcess = 3
const actionsPerClient = 40
const stormMillis = stormDuration(5_000)
/** The answers that show the storm raced: units made and refused for more than was picked, lines added, units closed. */
const raced = ["create 201", "create 409", "add 204", "close 204"]
const orderIds = ["PK-1", "PK-2", "PK-3"]
const skus = ["PK-A", "PK-B"]

/** The documented statuses of each kind of request in the storm. */
const allowed: Record<string, ReadonlyArray<number>> = {
  create: [201, 409],
  add: [204, 404, 409],
  unpack: [204, 404, 409],
  close: [204, 404, 409],
  ship: [204, 409]
}

/** Packed ≤ picked per order line, SSCCs unique and valid, shipped orders' units Shipped; each violation as one line. */
const violations = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const problems: Array<string> = []
  const lines = yield* sql<{ order_id: string; line: number; qty_picked: number; packed: number }>`
    SELECT o.order_id, l.line, l.qty_picked, CAST(COALESCE(SUM(p.qty), 0) AS INTEGER) AS packed
    FROM orders o JOIN order_lines l ON l.order_ref = o.id
    LEFT JOIN shipping_units u ON u.order_ref = o.id
    LEFT JOIN shipping_unit_lines p ON p.unit_id = u.id AND p.order_line = l.line
    GROUP BY o.order_id, l.line, l.qty_picked`
  for (const line of lines) {
    if (line.packed > line.qty_picked) {
      problems.push(`order ${line.order_id} line ${line.line}: ${line.packed} packed, ${line.qty_picked} picked`)
    }
  }
  const units = yield* sql<{ id: number; site_id: string; sscc: string; unit_status: number; order_status: number }>`
    SELECT u.id, u.site_id, u.sscc, u.status_id AS unit_status, o.status_id AS order_status
    FROM shipping_units u JOIN orders o ON o.id = u.order_ref`
  const seen = new Set<string>()
  for (const unit of units) {
    if (!isValidSscc(unit.sscc)) problems.push(`unit ${unit.id}: SSCC ${unit.sscc} is not valid`)
    if (seen.has(`${unit.site_id}/${unit.sscc}`)) problems.push(`unit ${unit.id}: SSCC ${unit.sscc} is taken twice`)
    seen.add(`${unit.site_id}/${unit.sscc}`)
    if (unit.order_status === 19 && unit.unit_status !== 19) problems.push(`unit ${unit.id} of a shipped order is open`)
  }
  return { problems, units: units.length }
})

const packingStorm = (database: StormDatabase) =>
  Effect.gen(function*() {
    const storm = yield* startStorm(database, { processes, site, allowed })
    const { first, next, pick, record, request, servers, tally } = storm

    // Ship by unit: an order ships only once all it picked is packed and closed, so the racing
    // packs and unpacks meet the ship gate instead of an order shipped in the storm's first second.
    must(
      204,
      yield* request(first, "PUT", `/sites/${site}/settings`, {
        gs1_company_prefix: "0614141",
        pack_before_ship: true
      }),
      "settings"
    )
    for (const sku_id of skus) {
      must(204, yield* request(first, "POST", "/skus", { sku_id, description: `Article ${sku_id}` }), `sku ${sku_id}`)
      must(204, yield* request(first, "POST", "/inventory/adjustments", { sku_id, loc_id: "F-1", qty: 100 }), "stock")
    }
    for (const order_id of orderIds) {
      const lines = skus.map((sku_id) => ({ sku_id, qty: 12 }))
      must(204, yield* request(first, "POST", "/orders", { order_id, lines }, `order-${order_id}`), order_id)
    }
    must(
      204,
      yield* request(first, "POST", "/wave-definitions", { description: "All", criterium_id: 5, pick_type: 1 }),
      "definition"
    )
    const definitionId = (yield* request(first, "GET", "/wave-definitions")).body[0].id as number
    const created = yield* request(first, "POST", "/waves/create", { wavedef_id: definitionId }, "wave")
    must(200, created, "wave")
    must(200, yield* request(first, "POST", "/waves/start", { wave_id: created.body.wave_id }, "start"), "start")
    for (const task of (yield* request(first, "GET", "/tasks")).body as Array<{ id: number }>) {
      must(204, yield* request(first, "POST", `/tasks/${task.id}/confirm`, {}, `confirm-${task.id}`), "confirm")
    }

    const units = (server: ServerProcess) =>
      Effect.map(request(server, "GET", "/shipping-units?status_id=1"), (r) => r.body as Array<{ id: number }>)
    const goesOn = storm.lasting({ actions: actionsPerClient, millis: stormMillis, needed: raced })
    const client = (s: number) =>
      Effect.gen(function*() {
        const server = servers[s]
        for (let n = 0; goesOn(n); n++) {
          const roll = next()
          const line = () => ({ order_line: 1 + Math.floor(next() * skus.length), qty: 1 + Math.floor(next() * 3) })
          if (roll < 0.4) {
            const body = { order_id: pick(orderIds), unit_type: next() < 0.8 ? "Carton" : "Pallet", lines: [line()] }
            record(
              "create",
              s,
              `create ${JSON.stringify(body)}`,
              yield* request(server, "POST", "/shipping-units", body)
            )
          } else if (roll < 0.7) {
            const unit = pick(yield* units(server))
            if (unit === undefined) continue
            const body = line()
            record(
              "add",
              s,
              `add ${unit.id} ${JSON.stringify(body)}`,
              yield* request(server, "POST", `/shipping-units/${unit.id}/lines`, body)
            )
          } else if (roll < 0.82) {
            const unit = pick(yield* units(server))
            if (unit === undefined) continue
            record("unpack", s, `unpack ${unit.id}`, yield* request(server, "DELETE", `/shipping-units/${unit.id}`))
          } else if (roll < 0.95) {
            const unit = pick(yield* units(server))
            if (unit === undefined) continue
            record("close", s, `close ${unit.id}`, yield* request(server, "POST", `/shipping-units/${unit.id}/close`))
          } else {
            const orderId = pick(orderIds)
            record("ship", s, `ship ${orderId}`, yield* request(server, "POST", `/orders/${orderId}/ship`))
          }
        }
      })
    yield* Effect.all(
      Array.from({ length: processes * clientsPerProcess }, (_, i) => client(i % processes)),
      { concurrency: "unbounded" }
    )

    const found = yield* Effect.provide(violations, storeSql(database)).pipe(Effect.orDie)
    const summary = `${storm.summary()}; ${found.units} units`
    assertStormHeld(storm, found.problems, summary)
    for (const done of raced) assert.isAbove(tally.get(done) ?? 0, 0, summary)
  })

describe("packing across 2 server processes on one database", () => {
  it.live(
    "PostgreSQL: packing the same order lines at once never packs more than was picked, and SSCCs stay unique",
    () => Effect.scoped(Effect.flatMap(freshPgDatabase, (url) => packingStorm({ kind: "pg", url }))),
    { timeout: 150_000 }
  )
})
