/**
 * The contract of `ReturnRepository` on both stores (spec §2): returns with their lines and their
 * order's id, the scope rule and filters, return ids unique on a site, the return counter, the
 * expiries an order line shipped, and the lock on order lines under which what returns authorize
 * never exceeds what shipped (R2).
 */
import { assert } from "@effect/vitest"
import {
  type ClaimRow,
  type NewReturnRow,
  type Owner,
  PickingRepository,
  ReturnRepository,
  WaveRepository
} from "@wms/core"
import { Effect, Option } from "effect"
import { fresh, insertContent, insertOrder, insertWave, makeTenants, onEachStore, waitsForCommit } from "./Contract.js"

/** A shipped order of the owner: line 1 A×5 with 4 shipped, line 2 B×2 with 2 shipped. */
const shippedOrder = (owner: Owner, extras: { readonly customer_id?: number } = {}) =>
  Effect.gen(function*() {
    const orderId = fresh("SO")
    const ref = yield* insertOrder(owner, orderId, [["A", 5], ["B", 2]], { status_id: 19, ...extras })
    const picking = yield* PickingRepository
    yield* picking.addPicked(ref, 1, 4)
    yield* picking.addPicked(ref, 2, 2)
    yield* picking.shipLines(ref)
    return { ref, orderId }
  })

const returnOf = (owner: Owner, orderRef: number, fields: Partial<NewReturnRow> = {}): NewReturnRow => ({
  owner,
  return_id: fresh("RMA"),
  order_ref: orderRef,
  customer_id: null,
  reason_code: "Damaged",
  notes: null,
  created_at: "2030-01-02T10:00:00.000Z",
  created_by: "clerk",
  lines: [{ line: 1, order_line: 1, sku_id: "A", qty_authorized: 3 }],
  ...fields
})

const insertReturn = (row: NewReturnRow) =>
  Effect.map(Effect.flatMap(ReturnRepository, (returns) => returns.insert(row)), Option.getOrThrow)

onEachStore("ReturnRepository", (it) => {
  it.effect("inserts a return Open with its lines, and reads it with its order's id in the scopes that see it", () =>
    Effect.gen(function*() {
      const returns = yield* ReturnRepository
      const t = yield* makeTenants
      const { orderId, ref } = yield* shippedOrder(t.client1.owner)
      const row = returnOf(t.client1.owner, ref, {
        customer_id: 2147483647,
        notes: "",
        lines: [
          { line: 1, order_line: 2, sku_id: "B", qty_authorized: 2 },
          { line: 2, order_line: 1, sku_id: "A", qty_authorized: 1 }
        ]
      })
      const key = yield* insertReturn(row)
      const expected = {
        ref: key,
        site_id: t.site.owner.site_id,
        client_id: t.client1.owner.client_id,
        return_id: row.return_id,
        order_ref: ref,
        order_id: orderId,
        customer_id: 2147483647,
        reason_code: "Damaged",
        notes: "",
        status_id: 1,
        created_at: "2030-01-02T10:00:00.000Z",
        created_by: "clerk",
        lines: [
          {
            line: 1,
            order_line: 2,
            sku_id: "B",
            qty_authorized: 2,
            qty_received: 0,
            qty_restocked: 0,
            qty_quarantined: 0,
            qty_scrapped: 0
          },
          {
            line: 2,
            order_line: 1,
            sku_id: "A",
            qty_authorized: 1,
            qty_received: 0,
            qty_restocked: 0,
            qty_quarantined: 0,
            qty_scrapped: 0
          }
        ]
      }
      assert.deepStrictEqual(yield* returns.find(t.client1.scope, row.return_id), Option.some(expected))
      assert.deepStrictEqual(yield* returns.find(t.site.scope, row.return_id), Option.some(expected))
      assert.deepStrictEqual(yield* returns.lock(t.site.scope, row.return_id), Option.some(expected))
      assert.isTrue(Option.isNone(yield* returns.find(t.client2.scope, row.return_id)))
      assert.isTrue(Option.isNone(yield* returns.find(t.other.scope, row.return_id)))
      assert.isTrue(Option.isNone(yield* returns.lock(t.client2.scope, row.return_id)))
      // The id is unique on the site, whoever owns the other return.
      assert.isTrue(Option.isNone(yield* returns.insert(returnOf(t.site.owner, ref, { return_id: row.return_id }))))
      assert.isTrue(Option.isSome(yield* returns.insert(returnOf(t.other.owner, ref, { return_id: row.return_id }))))
    }))

  it.effect("lists the returns a scope sees by creation, filtered by order, status and customer, in windows", () =>
    Effect.gen(function*() {
      const returns = yield* ReturnRepository
      const t = yield* makeTenants
      const first = yield* shippedOrder(t.client1.owner)
      const second = yield* shippedOrder(t.client2.owner)
      const a = returnOf(t.client1.owner, first.ref, { customer_id: 7 })
      const b = returnOf(t.client2.owner, second.ref)
      const c = returnOf(t.client1.owner, first.ref)
      for (const row of [a, b, c]) yield* insertReturn(row)
      yield* returns.setStatus(Option.getOrThrow(yield* returns.find(t.site.scope, c.return_id)).ref, 21)
      const ids = (list: ReadonlyArray<{ readonly return_id: string }>) => list.map((r) => r.return_id)
      assert.deepStrictEqual(ids(yield* returns.list(t.site.scope, {}, {})), [a.return_id, b.return_id, c.return_id])
      assert.deepStrictEqual(ids(yield* returns.list(t.client1.scope, {}, {})), [a.return_id, c.return_id])
      assert.deepStrictEqual(ids(yield* returns.list(t.other.scope, {}, {})), [])
      assert.deepStrictEqual(ids(yield* returns.list(t.site.scope, { order_id: second.orderId }, {})), [b.return_id])
      assert.deepStrictEqual(ids(yield* returns.list(t.site.scope, { status_id: 21 }, {})), [c.return_id])
      assert.deepStrictEqual(ids(yield* returns.list(t.site.scope, { customer_id: 7 }, {})), [a.return_id])
      assert.deepStrictEqual(ids(yield* returns.list(t.site.scope, {}, { limit: 1, offset: 1 })), [b.return_id])
    }))

  it.effect("adds received quantities by disposition, sets the status, and lowers authorized to received", () =>
    Effect.gen(function*() {
      const returns = yield* ReturnRepository
      const t = yield* makeTenants
      const { ref } = yield* shippedOrder(t.site.owner)
      const row = returnOf(t.site.owner, ref, {
        lines: [
          { line: 1, order_line: 1, sku_id: "A", qty_authorized: 4 },
          { line: 2, order_line: 2, sku_id: "B", qty_authorized: 2 }
        ]
      })
      const key = yield* insertReturn(row)
      yield* returns.addReceived(key, 1, { restocked: 1, quarantined: 0, scrapped: 0 })
      yield* returns.addReceived(key, 1, { restocked: 1, quarantined: 0, scrapped: 1 })
      yield* returns.setStatus(key, 2)
      const read = Effect.map(returns.find(t.site.scope, row.return_id), Option.getOrThrow)
      const received = yield* read
      assert.strictEqual(received.status_id, 2)
      assert.deepStrictEqual(received.lines[0], {
        line: 1,
        order_line: 1,
        sku_id: "A",
        qty_authorized: 4,
        qty_received: 3,
        qty_restocked: 2,
        qty_quarantined: 0,
        qty_scrapped: 1
      })
      yield* returns.authorizeReceived(key)
      assert.deepStrictEqual((yield* read).lines.map((line) => [line.qty_authorized, line.qty_received]), [[3, 3], [
        0,
        0
      ]])
    }))

  it.effect("counts from 1 per site, never the same number twice", () =>
    Effect.gen(function*() {
      const returns = yield* ReturnRepository
      const t = yield* makeTenants
      assert.deepStrictEqual(
        [
          yield* returns.nextNumber(t.site.owner.site_id),
          yield* returns.nextNumber(t.site.owner.site_id),
          yield* returns.nextNumber(t.other.owner.site_id)
        ],
        [1, 2, 1]
      )
    }))

  it.effect("yields the distinct expiries of the contents an order line's picks came from", () =>
    Effect.gen(function*() {
      const returns = yield* ReturnRepository
      const waves = yield* WaveRepository
      const t = yield* makeTenants
      const { orderId, ref } = yield* shippedOrder(t.site.owner)
      const wave = yield* insertWave(t.site.owner, { status_id: 20 })
      const [claimset] = yield* waves.insertClaimsets(wave, [{ claimset_break: orderId, pick_type: "Per order" }])
      const claim = (line: number, expiry: string | null) =>
        Effect.map(
          insertContent(t.site.owner, { sku_id: line === 1 ? "A" : "B", qty: 0, expiry_date: expiry }),
          (content): Omit<ClaimRow, "id"> => ({
            ...t.site.owner,
            wave_id: wave,
            claimset_id: claimset,
            content_id: content,
            order_ref: ref,
            order_id: orderId,
            line_id: line,
            sku_id: line === 1 ? "A" : "B",
            qty: 1,
            status: "picked",
            tag_id: "T1",
            from_loc_id: "A-01",
            to_loc_id: "DOCK",
            final_loc_id: "DOCK",
            created_at: "2030-01-01T09:30:00.000Z"
          })
        )
      yield* waves.insertClaims([
        yield* claim(1, "2031-05-01"),
        yield* claim(1, "2031-05-01"),
        yield* claim(2, "2031-05-01"),
        yield* claim(2, null)
      ])
      assert.deepStrictEqual(yield* returns.shippedExpiries(ref, 1), ["2031-05-01"])
      assert.sameMembers([...yield* returns.shippedExpiries(ref, 2)], ["2031-05-01", null])
      assert.deepStrictEqual(yield* returns.shippedExpiries(ref, 3), [])
    }))

  it.effect("locks order lines and sums what the returns that are not Cancelled authorize of them", () =>
    Effect.gen(function*() {
      const returns = yield* ReturnRepository
      const t = yield* makeTenants
      const { ref } = yield* shippedOrder(t.site.owner)
      yield* insertReturn(returnOf(t.site.owner, ref, {
        lines: [
          { line: 1, order_line: 1, sku_id: "A", qty_authorized: 1 },
          { line: 2, order_line: 1, sku_id: "A", qty_authorized: 1 }
        ]
      }))
      const cancelled = yield* insertReturn(returnOf(t.site.owner, ref))
      yield* returns.setStatus(cancelled, 21)
      assert.deepStrictEqual(yield* returns.lockLines(ref, [1, 2, 9]), [
        { line: 1, sku_id: "A", qty_shipped: 4, qty_authorized: 2 },
        { line: 2, sku_id: "B", qty_shipped: 2, qty_authorized: 0 }
      ])
      // A second creator of line 1 waits for the first, then counts what it authorized.
      const seen = yield* waitsForCommit(
        Effect.zipRight(returns.lockLines(ref, [1]), returns.insert(returnOf(t.site.owner, ref))),
        returns.lockLines(ref, [1])
      )
      assert.deepStrictEqual(seen, [{ line: 1, sku_id: "A", qty_shipped: 4, qty_authorized: 5 }])
    }))
})
