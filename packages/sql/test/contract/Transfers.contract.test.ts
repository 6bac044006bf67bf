/**
 * The contract of `TransferRepository` on both stores (spec §3), and what transfers add to the
 * ports of orders, pre-advices and receiving: an order's destination, a transfer's pre-advice with
 * its origin and the shipped tag and expiry of its lines, the lines in transit from either end in
 * pages, and the short-close that writes off what a line did not receive.
 */
import { assert, describe } from "@effect/vitest"
import {
  type NewTransfer,
  OrderRepository,
  PreAdviceRepository,
  ReceivingRepository,
  type StatusId,
  TransferRepository
} from "@wms/core"
import { Effect, Option } from "effect"
import { fresh, insertOrder, makeTenants, onEachStore, waitsForCommit } from "./Contract.js"

const transferOf = (toSite: string, fromSite: string, fields: Partial<NewTransfer> = {}): NewTransfer => {
  const orderId = fresh("T")
  return {
    site_id: toSite,
    pre_advice_id: `TR-${fromSite}-${orderId}`,
    order_id: orderId,
    from_site: fromSite,
    status_id: 26 as StatusId,
    created_at: "2030-01-02T08:00:00.000Z",
    created_by: "shipper",
    lines: [
      { line: 1, sku_id: "A", qty: 5, tag_id: "L-1", expiry_date: "2031-01-31" },
      { line: 2, sku_id: "B", qty: 2147483647, tag_id: "L-2", expiry_date: null }
    ],
    ...fields
  }
}

onEachStore("transfers", (it) => {
  describe("TransferRepository", () => {
    it.effect("inserts a transfer's pre-advice once, with its origin and its lines' tags and expiries", () =>
      Effect.gen(function*() {
        const transfers = yield* TransferRepository
        const preAdvices = yield* PreAdviceRepository
        const receiving = yield* ReceivingRepository
        const t = yield* makeTenants
        const transfer = transferOf(t.other.owner.site_id, t.site.owner.site_id)
        const ref = Option.getOrThrow(yield* transfers.insertTransfer(transfer))
        assert.isTrue(Option.isNone(yield* transfers.insertTransfer(transfer)))

        const header = Option.getOrThrow(yield* preAdvices.find(t.other.owner.site_id, transfer.pre_advice_id))
        assert.deepStrictEqual(
          [header.ref, header.client_id, header.supplier, header.status_id, header.transfer],
          [ref, null, null, 26, { order_id: transfer.order_id, from_site: t.site.owner.site_id, reason_code: null }]
        )
        assert.deepStrictEqual(yield* preAdvices.lines(ref, {}), [
          {
            line: 1,
            sku_id: "A",
            qty: 5,
            qty_received: 0,
            pallet_id: null,
            client_id: null,
            tag_id: "L-1",
            expiry_date: "2031-01-31",
            qty_lost: 0
          },
          {
            line: 2,
            sku_id: "B",
            qty: 2147483647,
            qty_received: 0,
            pallet_id: null,
            client_id: null,
            tag_id: "L-2",
            expiry_date: null,
            qty_lost: 0
          }
        ])
        const locked = Option.getOrThrow(yield* receiving.lockPreAdvice(t.other.scope, transfer.pre_advice_id))
        assert.deepStrictEqual(locked.transfer, { order_id: transfer.order_id, from_site: t.site.owner.site_id })
        assert.deepStrictEqual(
          locked.lines.map((l) => [l.tag_id, l.expiry_date, l.qty_lost]),
          [["L-1", "2031-01-31", 0], ["L-2", null, 0]]
        )
        // The destination's pre-advice, not the source's.
        assert.isTrue(Option.isNone(yield* receiving.lockPreAdvice(t.site.scope, transfer.pre_advice_id)))
      }))

    it.effect("lists the lines in transit to or from a site, by pre-advice and line, in pages", () =>
      Effect.gen(function*() {
        const transfers = yield* TransferRepository
        const receiving = yield* ReceivingRepository
        const t = yield* makeTenants
        const source = t.site.owner.site_id
        const destination = t.other.owner.site_id
        const first = transferOf(destination, source)
        const firstRef = Option.getOrThrow(yield* transfers.insertTransfer(first))
        const back = transferOf(source, destination, {
          lines: [{ line: 1, sku_id: "C", qty: 3, tag_id: "L-3", expiry_date: null }]
        })
        const backRef = Option.getOrThrow(yield* transfers.insertTransfer(back))
        // Line 2 of the first received in full, line 1 in part: only line 1 is in transit.
        yield* receiving.addReceivedLines(firstRef, new Map([[2, 2147483647]]))
        yield* receiving.addReceivedLines(firstRef, new Map([[1, 2]]))
        yield* receiving.setStatus(firstRef, 2)
        const lineOf = (row: { pre_advice_id: string; line: number; qty: number; qty_received: number }) => [
          row.pre_advice_id,
          row.line,
          row.qty,
          row.qty_received
        ]
        const expected = [[first.pre_advice_id, 1, 5, 2], [back.pre_advice_id, 1, 3, 0]]
        assert.deepStrictEqual((yield* transfers.inTransit(source, {})).map(lineOf), expected)
        assert.deepStrictEqual((yield* transfers.inTransit(destination, {})).map(lineOf), expected)
        assert.deepStrictEqual((yield* transfers.inTransit(source, { limit: 1, offset: 1 })).map(lineOf), [expected[1]])
        assert.deepStrictEqual(yield* transfers.inTransit("nowhere", {}), [])
        const [row] = yield* transfers.inTransit(source, { limit: 1 })
        assert.deepStrictEqual(row, {
          pre_advice_id: first.pre_advice_id,
          order_id: first.order_id,
          from_site: source,
          to_site: destination,
          status_id: 2 as StatusId,
          created_at: "2030-01-02T08:00:00.000Z",
          line: 1,
          sku_id: "A",
          tag_id: "L-1",
          expiry_date: "2031-01-31",
          qty: 5,
          qty_received: 2
        })

        // Closed, a transfer is no longer in transit; each line keeps what it lost.
        yield* transfers.close(firstRef, 20 as StatusId, "Theft")
        assert.deepStrictEqual((yield* transfers.inTransit(source, {})).map(lineOf), [expected[1]])
        const closed = Option.getOrThrow(yield* receiving.lockPreAdvice(t.other.scope, first.pre_advice_id))
        assert.deepStrictEqual(
          [closed.status_id, closed.lines.map((l) => [l.qty_received, l.qty_lost])],
          [20, [[2, 3], [2147483647, 0]]]
        )
        const preAdvices = yield* PreAdviceRepository
        const header = Option.getOrThrow(yield* preAdvices.find(destination, first.pre_advice_id))
        assert.strictEqual(header.transfer?.reason_code, "Theft")
        assert.deepStrictEqual(yield* preAdvices.lines(backRef, {}).pipe(Effect.map((ls) => ls[0].qty_lost)), 0)
      }))

    it.effect("keeps a closer out of a transfer a receiver holds; it then sees what was received", () =>
      Effect.gen(function*() {
        const transfers = yield* TransferRepository
        const receiving = yield* ReceivingRepository
        const t = yield* makeTenants
        const transfer = transferOf(t.other.owner.site_id, t.site.owner.site_id)
        const ref = Option.getOrThrow(yield* transfers.insertTransfer(transfer))
        const seen = yield* waitsForCommit(
          Effect.zipRight(
            receiving.lockPreAdvice(t.other.scope, transfer.pre_advice_id),
            receiving.addReceivedLines(ref, new Map([[1, 4]]))
          ),
          Effect.map(
            receiving.lockPreAdvice(t.other.scope, transfer.pre_advice_id),
            (found) => Option.getOrThrow(found).lines[0].qty_received
          )
        )
        assert.strictEqual(seen, 4)
      }))
  })

  describe("OrderRepository", () => {
    it.effect("keeps an order's destination site, null on a customer order", () =>
      Effect.gen(function*() {
        const orders = yield* OrderRepository
        const t = yield* makeTenants
        const transfer = fresh("T")
        yield* insertOrder(t.site.owner, transfer, [["A", 1]], { to_site: t.other.owner.site_id })
        const customer = fresh("SO")
        yield* insertOrder(t.site.owner, customer, [["A", 1]])
        const toSite = (orderId: string) =>
          Effect.map(orders.find(t.site.scope, orderId), (found) => Option.getOrThrow(found).header.to_site)
        assert.strictEqual(yield* toSite(transfer), t.other.owner.site_id)
        assert.strictEqual(yield* toSite(customer), null)
        const listed = (yield* orders.list(t.site.scope, false)).find((o) => o.header.order_id === transfer)
        assert.strictEqual(listed?.header.to_site, t.other.owner.site_id)
      }))
  })
})
