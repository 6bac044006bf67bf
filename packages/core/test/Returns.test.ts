/**
 * The rules of customer returns (spec §2) on stubbed ports: a return only of a shipped order (R1),
 * authorized under the order's lock and then its lines' never above what shipped (R2), with the
 * next generated id past one a client took; a receipt with its dispositions, its `Return` ledger
 * rows, the expiry it defaults to and the status it moves to (R3, R4); the checks' order.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  defaultSiteSettings,
  HoldRepository,
  Holds,
  InventoryRepository,
  LocationRepository,
  type NewReturn,
  OrderRepository,
  ReceiptPutaway,
  type ReturnableLine,
  ReturnRepository,
  type ReturnRow,
  Returns,
  SiteSettingsRepository,
  SkuRepository,
  type StoredOrder
} from "@wms/core"
import { CallLog, makeTestEventPublisher, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option } from "effect"
import { failure, siteActor, sku } from "./Fixtures.js"

const order: StoredOrder = {
  header: {
    ref: 7,
    order_id: "SO-1",
    client_id: null,
    order_date: null,
    status_id: 19,
    customer_id: 3,
    customer_name: "Jansen",
    customer_town: null,
    ship_by_date: null,
    carrier_name: null,
    ship_dock: null,
    created_at: "2030-01-01T08:00:00.000Z",
    created_by: "user-1",
    backorder_of: null,
    to_site: null
  },
  lines: [{ line: 1, sku_id: "A", qty: 5, qty_picked: 4, qty_shipped: 4, qty_backordered: 0 }]
}

const stored = (fields: Partial<ReturnRow> = {}): ReturnRow => ({
  ref: 11,
  site_id: "main",
  client_id: null,
  return_id: "R00000001",
  order_ref: 7,
  order_id: "SO-1",
  customer_id: 3,
  reason_code: "Damaged",
  notes: null,
  status_id: 1,
  created_at: "2030-01-02T09:00:00.000Z",
  created_by: "user-1",
  lines: [{
    line: 1,
    order_line: 1,
    sku_id: "A",
    qty_authorized: 3,
    qty_received: 0,
    qty_restocked: 0,
    qty_quarantined: 0,
    qty_scrapped: 0
  }],
  ...fields
})

interface Stubs {
  readonly returns?: Partial<Context.Tag.Service<ReturnRepository>>
  readonly orderStatus?: number
  readonly toSite?: string
  readonly authorized?: number
  readonly expiries?: ReadonlyArray<string | null>
  readonly putawayOnReceipt?: boolean
  readonly heldBy?: { readonly hold_id: number; readonly reason_code: string }
}

const withReturns = <A, E>(log: CallLog, stubs: Stubs, f: (returns: Returns) => Effect.Effect<A, E>) => {
  const events = makeTestEventPublisher()
  let content = 100
  const run = Effect.flatMap(Returns, f).pipe(Effect.provide(Returns.Default.pipe(Layer.provide([
    makeTestLayer(ReturnRepository)({
      find: () => Effect.succeed(Option.some(stored())),
      lock: (_, id) => Effect.succeed(id === "R00000001" ? Option.some(stored()) : Option.none()),
      lockLines: (_, lines) =>
        Effect.succeed(
          lines.includes(1)
            ? [{ line: 1, sku_id: "A", qty_shipped: 4, qty_authorized: stubs.authorized ?? 0 } as ReturnableLine]
            : []
        ),
      shippedExpiries: () => Effect.succeed(stubs.expiries ?? []),
      addReceived: () => Effect.void,
      setStatus: () => Effect.void,
      ...stubs.returns
    }, log),
    makeTestLayer(OrderRepository)({
      find: (_, orderId) =>
        Effect.succeed(
          orderId === "SO-1"
            ? Option.some({ ...order, header: { ...order.header, to_site: stubs.toSite ?? null } })
            : Option.none()
        ),
      lock: () => Effect.succeed(Option.some(stubs.orderStatus ?? 19))
    }, log),
    makeTestLayer(LocationRepository)({ lockMany: () => Effect.succeed([]) }, log),
    makeTestLayer(InventoryRepository)({
      nextTagId: () => Effect.succeed("T9"),
      insertContent: () => Effect.succeed(++content),
      appendTransaction: () => Effect.succeed(1),
      appendTransactions: () => Effect.void,
      holdsOn: (ids) => Effect.succeed(new Map(stubs.heldBy === undefined ? [] : [[ids[0], [stubs.heldBy]]]))
    }, log),
    makeTestLayer(HoldRepository)({ lockHoldsOf: () => Effect.void }, log),
    makeTestLayer(Holds)({ createHoldIn: () => Effect.succeed({} as never) }, log),
    makeTestLayer(SkuRepository)({
      find: () => Effect.succeed(Option.some(sku({ expiry_sku: true, expiry_days: 10 })))
    }, log),
    makeTestLayer(SiteSettingsRepository)({
      get: () => Effect.succeed({ ...defaultSiteSettings, putaway_on_receipt: stubs.putawayOnReceipt ?? false })
    }, log),
    makeTestLayer(ReceiptPutaway)({ putAway: () => Effect.succeed({ tasks: [41], unplaced: [] }) }, log),
    events.layer,
    testTransactor(log)
  ]))))
  return Effect.map(run, (result) => ({ result, events: events.published }))
}

const input = (fields: Partial<NewReturn> = {}): NewReturn => ({
  order_id: "SO-1",
  reason_code: "Damaged",
  lines: [{ order_line: 1, qty: 3 }],
  ...fields
})

describe("Returns", () => {
  it.effect("authorizes under the order's lock, then its lines', with the next generated id past a taken one", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      let n = 0
      const stubs: Stubs = {
        authorized: 1,
        returns: {
          nextNumber: () => Effect.succeed(++n),
          insert: (row) => Effect.succeed(row.return_id === "R00000001" ? Option.none() : Option.some(11))
        }
      }
      yield* withReturns(log, stubs, (returns) => returns.createReturn(siteActor, input()))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "OrderRepository.find",
        "OrderRepository.lock",
        "ReturnRepository.lockLines",
        "ReturnRepository.nextNumber",
        "ReturnRepository.insert",
        "ReturnRepository.nextNumber",
        "ReturnRepository.insert",
        "ReturnRepository.find",
        "Transactor.commit"
      ])
      const [[row]] = log.argsOf("ReturnRepository.insert").slice(1)
      assert.deepStrictEqual(row, {
        owner: { site_id: "main", client_id: null },
        return_id: "R00000002",
        order_ref: 7,
        customer_id: 3,
        reason_code: "Damaged",
        notes: null,
        created_at: (row as { created_at: string }).created_at,
        created_by: "user-1",
        lines: [{ line: 1, order_line: 1, sku_id: "A", qty_authorized: 3 }]
      })
    }))

  it.effect("refuses, writing nothing: an unknown order or line, an order not shipped, a transfer, more than returnable, a taken id", () =>
    Effect.gen(function*() {
      const attempt = (stubs: Stubs, body: NewReturn) => {
        const log = new CallLog()
        return Effect.map(
          failure(withReturns(log, stubs, (returns) => returns.createReturn(siteActor, body))),
          (error) => [...error, log.methods.filter((m) => m.includes("insert")).length, log.methods.at(-1)]
        )
      }
      assert.deepStrictEqual(yield* attempt({}, input({ order_id: "SO-9" })), [
        "OrderNotFound",
        "Order with OrderID SO-9 not found",
        0,
        "Transactor.rollback"
      ])
      assert.deepStrictEqual(yield* attempt({}, input({ lines: [{ order_line: 2, qty: 1 }] })), [
        "OrderLineNotFound",
        "Line 2 of order SO-1 not found",
        0,
        "Transactor.rollback"
      ])
      assert.deepStrictEqual(yield* attempt({ orderStatus: 18 }, input()), [
        "OrderNotShipped",
        "Order SO-1 is not shipped",
        0,
        "Transactor.rollback"
      ])
      assert.deepStrictEqual(yield* attempt({ toSite: "north" }, input()), [
        "ReturnOfTransfer",
        "Order SO-1 is a transfer to site north: its goods come back by a transfer, not a return",
        0,
        "Transactor.rollback"
      ])
      // Two lines of the body for one order line count together, against what the others authorize.
      assert.deepStrictEqual(
        yield* attempt({ authorized: 2 }, input({ lines: [{ order_line: 1, qty: 1 }, { order_line: 1, qty: 2 }] })),
        ["ReturnExceedsShipped", "Return of 3 exceeds the 2 returnable of order SO-1 line 1", 0, "Transactor.rollback"]
      )
      assert.deepStrictEqual(
        yield* attempt(
          { returns: { insert: () => Effect.succeed(Option.none()) } },
          input({ return_id: "RMA-7" })
        ),
        ["ReturnExists", "Return RMA-7 already exists", 1, "Transactor.rollback"]
      )
    }))

  it.effect("receives by disposition: restocked stock with its Return row, scrapped counted only, then the event", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const { events, result } = yield* withReturns(
        log,
        { expiries: ["2031-06-30"] },
        (returns) =>
          returns.receiveReturn(siteActor, "R00000001", {
            lines: [
              { line: 1, qty: 1, disposition: "Scrap", loc_id: null, tag_id: null, expiry_date: null },
              { line: 1, qty: 2, disposition: "Restock", loc_id: null, tag_id: null, expiry_date: null }
            ]
          })
      )
      assert.isTrue(Option.isNone(result))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "ReturnRepository.lock",
        "SiteSettingsRepository.get",
        "LocationRepository.lockMany",
        "ReturnRepository.addReceived",
        "ReturnRepository.addReceived",
        "InventoryRepository.nextTagId",
        "ReturnRepository.shippedExpiries",
        "InventoryRepository.insertContent",
        "InventoryRepository.appendTransaction",
        "InventoryRepository.holdsOn",
        "ReturnRepository.setStatus",
        "ReturnRepository.find",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("LocationRepository.lockMany"), [["main", ["RETURNS"], "share"]])
      assert.deepStrictEqual(log.argsOf("ReturnRepository.addReceived"), [
        [11, 1, { restocked: 0, quarantined: 0, scrapped: 1 }],
        [11, 1, { restocked: 2, quarantined: 0, scrapped: 0 }]
      ])
      const [[content]] = log.argsOf("InventoryRepository.insertContent") as ReadonlyArray<[Record<string, unknown>]>
      assert.deepStrictEqual(
        [content.loc_id, content.tag_id, content.expiry_date, content.qty, content.client_id],
        ["RETURNS", "T9", "2031-06-30", 2, null]
      )
      const [[entry]] = log.argsOf("InventoryRepository.appendTransaction") as ReadonlyArray<[Record<string, unknown>]>
      assert.deepStrictEqual(
        [entry.transaction_type, entry.content_id, entry.qty, entry.order_id, entry.line_id, entry.notes],
        ["Return", 101, 2, "SO-1", 1, "Return R00000001 line 1"]
      )
      // All three of the line received: Received.
      assert.deepStrictEqual(log.argsOf("ReturnRepository.setStatus"), [[11, 3]])
      assert.deepStrictEqual(events.map((e) => [e.event_type, (e.data as { return_id: string }).return_id]), [
        ["return_received", "R00000001"]
      ])
    }))

  it.effect("defaults the expiry to the SKU's when the order line shipped more than one; putaway with the setting", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const { result } = yield* withReturns(
        log,
        { expiries: ["2031-06-30", "2031-07-31"], putawayOnReceipt: true },
        (returns) =>
          returns.receiveReturn(siteActor, "R00000001", {
            lines: [{ line: 1, qty: 1, disposition: "Restock", loc_id: null, tag_id: "X", expiry_date: null }]
          })
      )
      assert.deepStrictEqual(result, Option.some({ tasks: [41], unplaced: [] }))
      const [[content]] = log.argsOf("InventoryRepository.insertContent") as ReadonlyArray<[Record<string, unknown>]>
      assert.notStrictEqual(content.expiry_date, "2031-06-30")
      assert.match(String(content.expiry_date), /^\d{4}-\d{2}-\d{2}$/)
      assert.deepStrictEqual(log.argsOf("LocationRepository.lockMany"), [["main", ["RETURNS"], "update"]])
      assert.deepStrictEqual(
        log.argsOf("ReceiptPutaway.putAway").map(([, contents, , at]) => [
          (contents as ReadonlyArray<{ readonly tag_id: string }>).map((c) => c.tag_id),
          at
        ]),
        [[["X"], "RETURNS"]]
      )
      // One of three received: In Receipt.
      assert.deepStrictEqual(log.argsOf("ReturnRepository.setStatus"), [[11, 2]])
    }))

  it.effect("quarantines under a content hold of reason Return, after the holds lock; held stock gets no putaway", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const { result } = yield* withReturns(
        log,
        { putawayOnReceipt: true, heldBy: { hold_id: 8, reason_code: "Recall" } },
        (returns) =>
          returns.receiveReturn(siteActor, "R00000001", {
            lines: [
              { line: 1, qty: 1, disposition: "Quarantine", loc_id: "Q-1", tag_id: null, expiry_date: null },
              { line: 1, qty: 1, disposition: "Restock", loc_id: null, tag_id: null, expiry_date: null }
            ]
          })
      )
      assert.deepStrictEqual(log.methods.slice(1, 5), [
        "ReturnRepository.lock",
        "HoldRepository.lockHoldsOf",
        "SiteSettingsRepository.get",
        "LocationRepository.lockMany"
      ])
      assert.deepStrictEqual(log.argsOf("ReturnRepository.addReceived")[0], [11, 1, {
        restocked: 0,
        quarantined: 1,
        scrapped: 0
      }])
      assert.deepStrictEqual(log.argsOf("Holds.createHoldIn").map(([, input]) => input), [{
        content_id: 101,
        sku_id: null,
        tag_id: null,
        expiry_date: null,
        loc_id: null,
        reason_code: "Return",
        notes: "Return R00000001 line 1",
        deallocate: null
      }])
      // The quarantined content (101) was born under a recall's hold too: its Hold row; the restocked
      // one (102) goes to putaway, the quarantined one never.
      const [[rows]] = log.argsOf("InventoryRepository.appendTransactions") as ReadonlyArray<
        [ReadonlyArray<Record<string, unknown>>]
      >
      assert.deepStrictEqual(rows.map((r) => [r.transaction_type, r.content_id, r.notes]), [["Hold", 101, "Hold 8"]])
      assert.deepStrictEqual(
        log.argsOf("ReceiptPutaway.putAway").map(([, contents]) =>
          (contents as ReadonlyArray<{ readonly content_id: number }>).map((c) => c.content_id)
        ),
        [[102]]
      )
      assert.deepStrictEqual(result, Option.some({ tasks: [41], unplaced: [] }))
    }))

  it.effect("refuses a receipt over what is authorized, of an ended return, and closes and cancels by status", () =>
    Effect.gen(function*() {
      const run = <A, E extends { readonly _tag: string; readonly message: string }>(
        status: number,
        f: (returns: Returns) => Effect.Effect<A, E>
      ) =>
        failure(withReturns(new CallLog(), {
          returns: { lock: () => Effect.succeed(Option.some(stored({ status_id: status }))) }
        }, f))
      const scrap = (qty: number) => ({
        lines: [{ line: 1, qty, disposition: "Scrap" as const, loc_id: null, tag_id: null, expiry_date: null }]
      })
      assert.deepStrictEqual(
        yield* run(2, (returns) => returns.receiveReturn(siteActor, "R00000001", scrap(4))),
        ["InvalidInput", "Over-receipt of return R00000001 line 1"]
      )
      assert.deepStrictEqual(
        yield* run(20, (returns) => returns.receiveReturn(siteActor, "R00000001", scrap(1))),
        ["ReturnStatusRefuses", "Return R00000001 is Complete"]
      )
      assert.deepStrictEqual(
        yield* run(1, (returns) => returns.closeReturn(siteActor, "R00000001")),
        ["ReturnNothingReceived", "Return R00000001 has nothing received: delete it instead"]
      )
      assert.deepStrictEqual(
        yield* run(2, (returns) => returns.deleteReturn(siteActor, "R00000001")),
        ["ReturnHasReceipts", "Return R00000001 has receipts: close it instead"]
      )
      assert.deepStrictEqual(
        yield* run(21, (returns) => returns.deleteReturn(siteActor, "R00000001")),
        ["ReturnStatusRefuses", "Return R00000001 is Cancelled"]
      )
      const log = new CallLog()
      yield* withReturns(log, {
        returns: {
          lock: () => Effect.succeed(Option.some(stored({ status_id: 2 }))),
          authorizeReceived: () => Effect.void
        }
      }, (returns) => returns.closeReturn(siteActor, "R00000001"))
      assert.deepStrictEqual(log.methods.slice(1, -1), [
        "ReturnRepository.lock",
        "ReturnRepository.authorizeReceived",
        "ReturnRepository.setStatus"
      ])
      assert.deepStrictEqual(log.argsOf("ReturnRepository.setStatus"), [[11, 20]])
    }))
})
