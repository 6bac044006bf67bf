/**
 * The rules of holds (spec §1) on stubbed ports: the checks of a new hold's scope before any read
 * (400 before 404), the order of a creation (the work `deallocate` cancels, then the holds lock,
 * then the contents), its `Hold` rows and `hold_created` event, a release's `Release` rows, its
 * guard and its event, and a trace read from every kind of ledger row that brings a lot in or sends it out.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  type Content,
  HoldDeallocation,
  HoldRepository,
  Holds,
  InventoryRepository,
  type LotMovement,
  type NewHold,
  type NewLedgerEntry,
  SiteId,
  SkuRepository,
  type StoredHold
} from "@wms/core"
import { CallLog, makeTestEventPublisher, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option, TestClock } from "effect"
import { failure, siteActor, sku } from "./Fixtures.js"

const now = Date.parse("2030-05-01T10:00:00.000Z")

const content = (fields: Partial<Content> = {}): Content => ({
  content_id: 22,
  site_id: SiteId.make("main"),
  client_id: null,
  sku_id: "A",
  loc_id: "L-22",
  tag_id: "LOT-1",
  expiry_date: null,
  qty: 10,
  qty_allocated: 3,
  qty_tasked_from: 0,
  created_at: "2030-01-01T00:00:00.000Z",
  ...fields
})

const stored = (fields: Partial<StoredHold> = {}): StoredHold => ({
  id: 7,
  site_id: SiteId.make("main"),
  client_id: null,
  content_id: null,
  sku_id: "A",
  tag_id: "LOT-1",
  expiry_date: null,
  loc_id: null,
  reason_code: "QA",
  notes: null,
  status_id: 24,
  deallocate: false,
  created_by: "user-1",
  created_at: new Date(now).toISOString(),
  released_by: null,
  released_at: null,
  release_notes: null,
  qty_covered: 10,
  ...fields
})

const newHold = (fields: Partial<NewHold> = {}): NewHold => ({
  content_id: null,
  sku_id: "A",
  tag_id: "LOT-1",
  expiry_date: null,
  loc_id: null,
  reason_code: "QA",
  notes: null,
  deallocate: null,
  ...fields
})

const withHolds = <A, E>(
  log: CallLog,
  f: (holds: Holds) => Effect.Effect<A, E>,
  stubs: { readonly holds?: Partial<Context.Tag.Service<HoldRepository>> } = {}
) => {
  const events = makeTestEventPublisher()
  const ledger: Array<NewLedgerEntry> = []
  const run = Effect.flatMap(Holds, f).pipe(Effect.provide(Holds.Default.pipe(Layer.provide([
    makeTestLayer(HoldRepository)({
      find: (_, id) => Effect.succeed(id === 7 ? Option.some(stored()) : Option.none()),
      insert: () => Effect.succeed(7),
      lockHoldsOf: () => Effect.void,
      coveredContents: () => Effect.succeed([content(), content({ content_id: 23, qty: 0, qty_allocated: 0 })]),
      coverContents: () => Effect.void,
      release: () => Effect.succeed(true),
      ...stubs.holds
    }, log),
    makeTestLayer(InventoryRepository)({
      findContent: (_, id) =>
        Effect.succeed(id === 22 ? Option.some({ ...content(), description: null }) : Option.none()),
      appendTransactions: (entries) => Effect.sync(() => void ledger.push(...entries))
    }, log),
    makeTestLayer(SkuRepository)({
      find: (_, skuId) => Effect.succeed(skuId === "A" ? Option.some(sku({ sku_id: "A" })) : Option.none())
    }, log),
    makeTestLayer(HoldDeallocation)({
      prepare: () => Effect.succeed({ claims: [], tasks: [] }),
      deallocate: () => Effect.void
    }, log),
    events.layer,
    testTransactor(log)
  ]))))
  return Effect.map(run, (result) => ({ result, ledger, events: events.published }))
}

describe("Holds", () => {
  it.effect("a lot hold takes the holds lock, then writes a Hold row per content with stock, and hold_created", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const log = new CallLog()
      const { events, ledger, result } = yield* withHolds(log, (holds) => holds.createHold(siteActor, newHold()))
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "SkuRepository.find",
        "HoldRepository.lockHoldsOf",
        "HoldRepository.insert",
        "HoldRepository.coveredContents",
        "InventoryRepository.appendTransactions",
        "HoldRepository.find",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(
        ledger.map((row) => [row.transaction_type, row.content_id, row.qty, row.reason_code, row.notes]),
        [["Hold", 22, 10, "QA", "Hold 7"]]
      )
      assert.deepStrictEqual([result.id, result.status, result.qty_covered], [7, "Active", 10])
      assert.deepStrictEqual(events.map((event) => event.event_type), ["hold_created"])
    }))

  it.effect("deallocate cancels the work it locked before the holds lock, under the contents' locks", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      yield* withHolds(
        log,
        (holds) =>
          holds.createHold(siteActor, newHold({ content_id: 22, sku_id: null, tag_id: null, deallocate: true }))
      )
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "InventoryRepository.findContent",
        "HoldDeallocation.prepare",
        "HoldRepository.lockHoldsOf",
        "HoldRepository.insert",
        "HoldRepository.coverContents",
        "HoldRepository.coveredContents",
        "HoldDeallocation.deallocate",
        "InventoryRepository.appendTransactions",
        "HoldRepository.find",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(log.argsOf("HoldRepository.coveredContents"), [[7, true]])
    }))

  it.effect("the scope is checked before any read; unknown ids are 404s; nothing is written", () =>
    Effect.gen(function*() {
      const create = (input: NewHold) => {
        const log = new CallLog()
        return Effect.map(
          failure(withHolds(log, (holds) => holds.createHold(siteActor, input))),
          (
            refusal
          ) => [...refusal, log.methods.filter((m) => m.startsWith("HoldRepository") || m.endsWith("Transactions"))]
        )
      }
      assert.deepStrictEqual(yield* create(newHold({ sku_id: null, tag_id: null })), [
        "InvalidInput",
        "Missing field content_id, sku_id or loc_id",
        []
      ])
      assert.deepStrictEqual(yield* create(newHold({ content_id: 22 })), [
        "InvalidInput",
        "Invalid field content_id: cannot be combined with sku_id, tag_id, expiry_date or loc_id",
        []
      ])
      assert.deepStrictEqual(yield* create(newHold({ sku_id: null, loc_id: "L-1" })), [
        "InvalidInput",
        "Missing field sku_id",
        []
      ])
      assert.deepStrictEqual((yield* create(newHold({ sku_id: "NOPE" }))).slice(0, 1), ["SkuNotFound"])
      assert.deepStrictEqual(yield* create(newHold({ content_id: 99, sku_id: null, tag_id: null })), [
        "ContentNotFound",
        "Inventory content with contentId 99 not found",
        []
      ])
    }))

  it.effect("a release writes a Release row per content with stock and hold_released; twice is a 409", () =>
    Effect.gen(function*() {
      const log = new CallLog()
      const { events, ledger } = yield* withHolds(log, (holds) => holds.releaseHold(siteActor, 7, { notes: "ok" }))
      assert.deepStrictEqual(ledger.map((row) => [row.transaction_type, row.content_id, row.notes]), [
        ["Release", 22, "Hold 7"]
      ])
      assert.deepStrictEqual(events.map((event) => event.event_type), ["hold_released"])
      const released = { find: () => Effect.succeed(Option.some(stored({ status_id: 14 }))) }
      assert.deepStrictEqual(
        yield* failure(
          withHolds(new CallLog(), (holds) => holds.releaseHold(siteActor, 7, { notes: null }), { holds: released })
        ),
        ["HoldWrongState", "Hold 7 is Released"]
      )
      assert.deepStrictEqual(
        yield* failure(withHolds(new CallLog(), (holds) => holds.releaseHold(siteActor, 8, { notes: null }))),
        ["HoldNotFound", "Hold 8 not found"]
      )
    }))

  it.effect("a trace names each received row's source and each shipped row's customer or site, from the ledger rows", () =>
    Effect.gen(function*() {
      const movement = (fields: Partial<LotMovement> & Pick<LotMovement, "transaction_type">): LotMovement => ({
        created_at: "2030-04-30T23:30:00.000Z",
        content_id: 22,
        qty: 1,
        order_id: null,
        line_id: null,
        notes: null,
        customer_id: null,
        to_site: null,
        ...fields
      })
      const lotHistory = () =>
        Effect.succeed({
          movements: [
            movement({ transaction_type: "Receipt", qty: 10, line_id: 1, notes: "PreAdvice PA 1" }),
            movement({
              transaction_type: "TransferIn",
              content_id: 23,
              qty: 4,
              order_id: "T-9",
              line_id: 1,
              notes: "Transfer T-9"
            }),
            movement({ transaction_type: "Shipment", qty: 3, order_id: "SO-1", line_id: 2, customer_id: 5 }),
            movement({
              transaction_type: "TransferOut",
              qty: 2,
              order_id: "T-2",
              line_id: 1,
              notes: "Transfer T-2",
              to_site: "north"
            }),
            movement({
              transaction_type: "Return",
              content_id: 24,
              qty: 1,
              order_id: "SO-1",
              line_id: 2,
              notes: "Return RMA line 7 line 1"
            })
          ],
          contents: [{ ...content({ qty: 5, qty_allocated: 0 }), held: true }]
        })
      const { result } = yield* withHolds(
        new CallLog(),
        (holds) => holds.getTrace(siteActor, { sku_id: "A", tag_id: "LOT-1" }),
        { holds: { lotHistory } }
      )
      assert.deepStrictEqual(result.received, [
        {
          date: "2030-04-30",
          transaction_type: "Receipt",
          pre_advice_id: "PA 1",
          return_id: null,
          order_id: null,
          qty: 10,
          content_id: 22
        },
        {
          date: "2030-04-30",
          transaction_type: "TransferIn",
          pre_advice_id: null,
          return_id: null,
          order_id: "T-9",
          qty: 4,
          content_id: 23
        },
        {
          date: "2030-04-30",
          transaction_type: "Return",
          pre_advice_id: null,
          return_id: "RMA line 7",
          order_id: "SO-1",
          qty: 1,
          content_id: 24
        }
      ])
      assert.deepStrictEqual(result.shipped, [
        {
          date: "2030-04-30",
          transaction_type: "Shipment",
          order_id: "SO-1",
          customer_id: 5,
          to_site: null,
          line: 2,
          qty: 3
        },
        {
          date: "2030-04-30",
          transaction_type: "TransferOut",
          order_id: "T-2",
          customer_id: null,
          to_site: "north",
          line: 1,
          qty: 2
        }
      ])
      assert.deepStrictEqual(result.on_hand, [{ content_id: 22, loc_id: "L-22", qty: 5, qty_allocated: 0, held: true }])
    }))
})
