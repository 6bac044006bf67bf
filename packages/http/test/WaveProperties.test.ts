/**
 * Wave allocation by properties, through the API: for a generated warehouse (SKUs,
 * contents with and without expiry, expired ones too, orders with lines, 1–3 overlapping waves),
 * creating and starting the waves never allocates more than is available nor expired stock, keeps
 * FEFO, never gives a line more than it asks, writes one claim, one task and one Allocate
 * transaction together, and deleting the waves gives every content back exactly.
 */
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../testing/properties.js"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"

const expired = "2001-01-01"
const orderDates = ["2030-05-01", "2030-05-02"]

interface ContentSeed {
  readonly sku: number
  readonly qty: number
  readonly expiry_date: string | null
}

interface OrderSeed {
  readonly order_date: string
  readonly lines: ReadonlyArray<{ readonly sku: number; readonly qty: number }>
}

type Criterion = { readonly kind: "all" } | { readonly kind: "date"; readonly date: number } | {
  readonly kind: "order"
  readonly order: number
}

interface WaveSeed {
  readonly criterion: Criterion
  readonly pick_type: 1 | 2 | 3 | 4
  readonly autostart: boolean
}

interface Warehouse {
  readonly skus: number
  readonly contents: ReadonlyArray<ContentSeed>
  readonly orders: ReadonlyArray<OrderSeed>
  readonly waves: ReadonlyArray<WaveSeed>
}

const warehouse: fc.Arbitrary<Warehouse> = fc.integer({ min: 1, max: 3 }).chain((skus) => {
  const sku = fc.integer({ min: 0, max: skus - 1 })
  return fc.record({
    skus: fc.constant(skus),
    contents: fc.array(
      fc.record({
        sku,
        qty: fc.integer({ min: 1, max: 9 }),
        expiry_date: fc.constantFrom<string | null>(
          null,
          expired,
          "2099-01-01",
          "2099-02-01",
          "2099-02-01",
          "2099-03-01"
        )
      }),
      { minLength: 1, maxLength: 7 }
    ),
    orders: fc.array(
      fc.record({
        order_date: fc.constantFrom(...orderDates),
        lines: fc.array(fc.record({ sku, qty: fc.integer({ min: 1, max: 8 }) }), { minLength: 1, maxLength: 3 })
      }),
      { minLength: 1, maxLength: 6 }
    ),
    waves: fc.array(
      fc.record({
        criterion: fc.oneof(
          fc.constant<Criterion>({ kind: "all" }),
          fc.record({ kind: fc.constant("date" as const), date: fc.integer({ min: 0, max: orderDates.length - 1 }) }),
          fc.record({ kind: fc.constant("order" as const), order: fc.integer({ min: 0, max: 5 }) })
        ),
        pick_type: fc.constantFrom<1 | 2 | 3 | 4>(1, 2, 3, 4),
        autostart: fc.boolean()
      }),
      { minLength: 1, maxLength: 3 }
    )
  })
})

interface StoredContent {
  readonly content_id: number
  readonly sku_id: string
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
  readonly expiry_date: string | null
  readonly created_at: string
}

interface Claim {
  readonly id: number
  readonly content_id: number
  readonly sku_id: string
  readonly qty: number
  readonly order_id: string
  readonly line_id: number
  readonly claimset: number
  readonly status: string
  readonly loc_id: string
}

/** First expiry first out (no expiry last), then oldest, then lowest content id: the documented order. */
const servedBefore = (a: StoredContent, b: StoredContent) => {
  if (a.expiry_date !== b.expiry_date) {
    if (a.expiry_date === null) return false
    if (b.expiry_date === null) return true
    return a.expiry_date < b.expiry_date
  }
  if (a.created_at !== b.created_at) return a.created_at < b.created_at
  return a.content_id < b.content_id
}

const available = (c: { qty: number; qty_allocated: number; qty_tasked_from: number }) =>
  c.qty - c.qty_allocated - c.qty_tasked_from

const total = <A>(rows: ReadonlyArray<A>, key: (row: A) => string | number, qty: (row: A) => number) => {
  const sums = new Map<string | number, number>()
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + qty(row))
  return sums
}

/** A multiset of tuples as sorted text, to compare one-to-one correspondences. */
const bag = (items: ReadonlyArray<ReadonlyArray<unknown>>) => items.map((item) => JSON.stringify(item)).sort()

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000, excludeTestServices: true })(`wave properties on ${label}`, (it) => {
    it.effect.prop(
      "create and start: within available, unexpired, FEFO, lines not over-served, claims = tasks = Allocate; delete restores",
      [warehouse],
      ([w]) =>
        Effect.gen(function*() {
          const api = yield* Api
          const sql = yield* SqlClient.SqlClient
          const token = yield* api.login()
          const site = `P${globalThis.crypto.randomUUID().slice(0, 8)}`
          const created = yield* api.request("POST", "/sites", {
            token,
            site: "main",
            body: { site_id: site, name: site }
          })
          assert.strictEqual(created.status, 204, JSON.stringify(created.body))
          const request = (method: "GET" | "POST" | "DELETE", path: string, body?: unknown) =>
            api.request(method, path, { token, site, body })
          const must = <A extends { status: number; body: unknown }>(status: number, response: A, what: string) => {
            assert.strictEqual(response.status, status, `${what}: ${JSON.stringify(response.body)}`)
            return response
          }
          const today = new Date().toISOString().slice(0, 10)
          const skuId = (sku: number) => `S${sku}`
          const orderId = (order: number) => `O${order}`

          for (let sku = 0; sku < w.skus; sku++) {
            must(204, yield* request("POST", "/skus", { sku_id: skuId(sku), description: `Article ${sku}` }), "sku")
          }
          for (const [i, content] of w.contents.entries()) {
            const body = {
              sku_id: skuId(content.sku),
              loc_id: `L${i}`,
              tag_id: `T${i}`,
              expiry_date: content.expiry_date,
              qty: content.qty
            }
            must(204, yield* request("POST", "/inventory/adjustments", body), "stock")
          }
          for (const [i, order] of w.orders.entries()) {
            const body = {
              order_id: orderId(i),
              order_date: order.order_date,
              lines: order.lines.map((line) => ({ sku_id: skuId(line.sku), qty: line.qty }))
            }
            must(204, yield* request("POST", "/orders", body), "order")
          }

          const storedContents = sql<StoredContent>`SELECT content_id, sku_id, qty, qty_allocated, qty_tasked_from,
            expiry_date, created_at FROM contents WHERE site_id = ${site} ORDER BY content_id`.pipe(Effect.orDie)
          const overview = Effect.map(
            request("GET", "/inventory/overview"),
            (response) =>
              new Map<number, number>(response.body.map((c: StoredContent) => [c.content_id, c.qty_allocated]))
          )
          const before = yield* storedContents
          const overviewBefore = yield* overview
          assert.strictEqual(before.length, w.contents.length)

          // The waves one after another: each takes the orders no earlier unfinished wave holds.
          const waveIds: Array<number> = []
          for (const [i, wave] of w.waves.entries()) {
            const { criterion } = wave
            const definition = {
              description: `Wave ${i}`,
              pick_type: wave.pick_type,
              autostart: wave.autostart,
              ...(criterion.kind === "all"
                ? { criterium_id: 5 }
                : criterion.kind === "date"
                ? { criterium_id: 3, value: orderDates[criterion.date].split("-").reverse().join("-") }
                : { criterium_id: 2, value: orderId(criterion.order).toLowerCase() })
            }
            must(204, yield* request("POST", "/wave-definitions", definition), "definition")
            const definitions = yield* request("GET", "/wave-definitions")
            const wavedef_id = definitions.body[definitions.body.length - 1].id
            const made = must(200, yield* request("POST", "/waves/create", { wavedef_id }), "wave create")
            const waveId: number = made.body.wave_id
            waveIds.push(waveId)
            const detail = yield* request("GET", `/waves/${waveId}`)
            if (!wave.autostart || detail.body.order_count === 0) {
              must(200, yield* request("POST", "/waves/start", { wave_id: waveId }), "wave start")
            }
          }

          const after = yield* storedContents
          const overviewAfter = yield* overview
          const claims: Array<Claim & { wave_id: number }> = []
          const tasks: Array<Record<string, unknown>> = []
          const waveOrders = new Set<string>()
          for (const waveId of waveIds) {
            const waveClaims: Array<Claim> = (yield* request("GET", `/waves/${waveId}/claims`)).body
            const waveTasks: Array<Record<string, unknown>> = (yield* request("GET", `/waves/${waveId}/tasks`)).body
            claims.push(...waveClaims.map((claim) => ({ ...claim, wave_id: waveId })))
            tasks.push(...waveTasks)
            for (const order of (yield* request("GET", `/waves/${waveId}/orders`)).body) waveOrders.add(order.order_id)
            const detail = (yield* request("GET", `/waves/${waveId}`)).body
            const claimed = waveClaims.reduce((sum, claim) => sum + claim.qty, 0)
            assert.deepStrictEqual(
              [detail.qty_allocated, detail.qty_short],
              [claimed, detail.qty_ordered - claimed],
              `wave ${waveId}`
            )
          }
          const byId = new Map(after.map((c) => [c.content_id, c]))
          const claimedByContent = total(claims, (c) => c.content_id, (c) => c.qty)

          // Never more than available, and the allocation grew by exactly what was claimed.
          for (const content of before) {
            const claimed = claimedByContent.get(content.content_id) ?? 0
            assert.isAtMost(claimed, available(content), `content ${content.content_id} over-allocated`)
            const now = byId.get(content.content_id)!
            assert.strictEqual(now.qty_allocated, content.qty_allocated + claimed, `content ${content.content_id}`)
            assert.strictEqual(
              overviewAfter.get(content.content_id),
              now.qty_allocated,
              `overview of ${content.content_id}`
            )
          }
          for (const claim of claims) {
            const content = byId.get(claim.content_id)!
            // Never expired stock, and only stock of the line's SKU.
            assert.isTrue(
              content.expiry_date === null || content.expiry_date >= today,
              `claim ${claim.id} takes expired stock`
            )
            assert.strictEqual(content.sku_id, claim.sku_id)
            assert.strictEqual(claim.status, "allocated")
            // FEFO: every content served before it was used up by the time it was taken, and stays so.
            for (const other of after) {
              if (other.sku_id !== content.sku_id || other.expiry_date !== null && other.expiry_date < today) continue
              if (servedBefore(other, content)) {
                assert.strictEqual(
                  available(other),
                  0,
                  `claim ${claim.id} on ${content.content_id} while ${other.content_id} had stock`
                )
              }
            }
          }

          // A line gets at most its quantity, and is short only when no allocatable stock is left.
          const claimedByLine = total(claims, (c) => `${c.order_id}|${c.line_id}`, (c) => c.qty)
          for (const [i, order] of w.orders.entries()) {
            for (const [j, line] of order.lines.entries()) {
              const claimed = claimedByLine.get(`${orderId(i)}|${j + 1}`) ?? 0
              assert.isAtMost(claimed, line.qty, `line ${j + 1} of ${orderId(i)}`)
              if (!waveOrders.has(orderId(i))) assert.strictEqual(claimed, 0, `${orderId(i)} is in no wave`)
              else if (claimed < line.qty) {
                const left = after.filter((c) =>
                  c.sku_id === skuId(line.sku) && (c.expiry_date === null || c.expiry_date >= today) && available(c) > 0
                )
                assert.deepStrictEqual(left.map((c) => c.content_id), [], `line ${j + 1} of ${orderId(i)} short`)
              }
            }
          }

          // One claim, one task and one Allocate transaction, each the same allocation.
          const allocations = (yield* request("GET", "/inventory/transactions")).body
            .filter((t: { transaction_type: string }) => t.transaction_type === "Allocate")
          assert.deepStrictEqual(
            bag(tasks.map((t) => [t.id, t.quantity, t.from_loc_id, t.sku_id, t.wave_id, t.claimset])),
            bag(claims.map((c) => [c.id, c.qty, c.loc_id, c.sku_id, c.wave_id, c.claimset]))
          )
          assert.deepStrictEqual(
            bag(
              allocations.map((
                t: Record<string, unknown>
              ) => [t.content_id, t.order_id, t.line_id, t.qty, t.from_loc_id])
            ),
            bag(claims.map((c) => [c.content_id, c.order_id, c.line_id, c.qty, c.loc_id]))
          )
          const stored = yield* sql<{ id: number }>`SELECT id FROM claims WHERE site_id = ${site}`.pipe(Effect.orDie)
          assert.sameMembers(stored.map((c) => c.id), claims.map((c) => c.id))

          // Deleting every wave gives each content back exactly what it had before.
          for (const waveId of waveIds) must(204, yield* request("DELETE", `/waves/${waveId}`), `delete wave ${waveId}`)
          const restored = yield* storedContents
          assert.deepStrictEqual(
            restored.map((c) => [c.content_id, c.qty_allocated]),
            before.map((c) => [c.content_id, c.qty_allocated])
          )
          assert.deepStrictEqual(yield* overview, overviewBefore)
          const left = yield* sql<
            { n: number }
          >`SELECT CAST(count(*) AS INTEGER) AS n FROM claims WHERE site_id = ${site}`
            .pipe(Effect.orDie)
          assert.strictEqual(left[0].n, 0)
          const ledger = (yield* request("GET", "/inventory/transactions")).body
          const deallocations = ledger.filter((t: { transaction_type: string }) => t.transaction_type === "Deallocate")
          assert.deepStrictEqual(
            bag(deallocations.map((t: Record<string, unknown>) => [t.content_id, t.order_id, t.line_id, t.qty])),
            bag(claims.map((c) => [c.content_id, c.order_id, c.line_id, c.qty]))
          )
          const orders = (yield* request("GET", "/orders?lines=false")).body
          assert.isTrue(orders.every((o: { order_status: { id: number } }) => o.order_status.id === 14))
        }),
      { timeout: 120_000, fastCheck: { numRuns: propertyRuns(10) } }
    )
  })
}
