import { assert, describe, it } from "@effect/vitest"
import {
  ClientId,
  type Content,
  InventoryRepository,
  PreAdvices,
  type PreAdviceToReceive,
  type ReceiptLine,
  Receiving,
  ReceivingRepository,
  SkuRepository,
  UserId
} from "@wms/core"
import { CallLog, makeTestEventPublisher, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option, TestClock } from "effect"
import { failure, siteActor, sku } from "./Fixtures.js"

const now = Date.parse("2030-05-01T10:00:00.000Z")
const createdAt = new Date(now).toISOString()

/** PA-1 (ref 3): line 1 expects 5 of A; line 2, of its own client c2, 3 of EXP (10 days' expiry), 1 in already. */
const preAdvice = (fields: Partial<PreAdviceToReceive> = {}): PreAdviceToReceive => ({
  ref: 3,
  pre_advice_id: "PA-1",
  client_id: null,
  status_id: 1,
  lines: [
    { line: 1, sku_id: "A", qty: 5, qty_received: 0, client_id: null },
    { line: 2, sku_id: "EXP", qty: 3, qty_received: 1, client_id: ClientId.make("c2") }
  ],
  ...fields
})

/** The pre-advice as `GET /preadvices/:id` shows it once received, for the event. */
const shown: Effect.Effect.Success<ReturnType<PreAdvices["get"]>> = {
  pre_advice_id: "PA-1",
  client_id: null,
  pre_advice_status: { id: 3, description: "Received" },
  supplier: null,
  creation_datetime: "01-05-2030 09:00:00",
  created_by: UserId.make("user-1"),
  lines: []
}

const withReceiving = <A, E>(
  log: CallLog,
  found: Option.Option<PreAdviceToReceive>,
  f: (receiving: Receiving) => Effect.Effect<A, E>
) => {
  const events = makeTestEventPublisher()
  let tags = 0
  let contents = 40
  const inventory: Partial<Context.Tag.Service<InventoryRepository>> = {
    nextTagId: () => Effect.sync(() => `T0000000${++tags}`),
    insertContent: () => Effect.sync(() => contents++),
    appendTransaction: () => Effect.succeed(1)
  }
  return Effect.flatMap(Receiving, f).pipe(
    Effect.map((result) => ({ result, events: events.published })),
    Effect.provide(Receiving.Default.pipe(Layer.provide([
      makeTestLayer(ReceivingRepository)({
        lockPreAdvice: () => Effect.succeed(found),
        receivingLocation: () => Effect.succeed("RECEIVING"),
        addReceived: () => Effect.void,
        setStatus: () => Effect.void
      }, log),
      makeTestLayer(InventoryRepository)(inventory, log),
      makeTestLayer(SkuRepository)({
        find: (_, skuId) =>
          Effect.succeed(Option.some(
            skuId === "EXP" ? sku({ sku_id: skuId, expiry_sku: true, expiry_days: 10 }) : sku({ sku_id: skuId })
          ))
      }, log),
      makeTestLayer(PreAdvices)({ get: () => Effect.succeed(shown) }, log),
      events.layer,
      testTransactor(log)
    ])))
  )
}

const receipt = (fields: Partial<ReceiptLine> & Pick<ReceiptLine, "line" | "qty">): ReceiptLine => ({
  loc_id: null,
  tag_id: null,
  expiry_date: null,
  ...fields
})

const content = (fields: Partial<Content>): Omit<Content, "content_id"> => ({
  site_id: siteActor.scope.site_id,
  client_id: null,
  sku_id: "A",
  loc_id: "RECEIVING",
  tag_id: "T00000001",
  expiry_date: null,
  qty: 5,
  qty_allocated: 0,
  qty_tasked_from: 0,
  created_at: createdAt,
  ...fields
})

describe("Receiving", () => {
  it.effect("without lines everything still expected comes in: a content and a Receipt per line, then Received", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const { events } = yield* withReceiving(
        log,
        Option.some(preAdvice()),
        (receiving) => receiving.receive(siteActor, "PA-1", { lines: null })
      )
      const perLine = [
        "SkuRepository.find",
        "InventoryRepository.nextTagId",
        "InventoryRepository.insertContent",
        "InventoryRepository.appendTransaction",
        "ReceivingRepository.addReceived"
      ]
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "ReceivingRepository.lockPreAdvice",
        "ReceivingRepository.receivingLocation",
        ...perLine,
        ...perLine,
        "ReceivingRepository.setStatus",
        "PreAdvices.get",
        "Transactor.commit"
      ])
      // At the receiving location, under generated tags; an expiry SKU expires its expiry_days from today.
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertContent"), [
        [content({})],
        [content({
          client_id: ClientId.make("c2"),
          sku_id: "EXP",
          tag_id: "T00000002",
          expiry_date: "2030-05-11",
          qty: 2
        })]
      ])
      const receiptEntry = (content_id: number, sku_id: string, tag_id: string, qty: number, line_id: number) => ({
        site_id: "main",
        client_id: line_id === 2 ? "c2" : null,
        created_at: createdAt,
        transaction_type: "Receipt",
        content_id,
        from_loc_id: "RECEIVING",
        to_loc_id: "RECEIVING",
        final_loc_id: "RECEIVING",
        sku_id,
        qty,
        tag_id,
        order_id: null,
        line_id,
        notes: "PreAdvice PA-1"
      })
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransaction"), [
        [receiptEntry(40, "A", "T00000001", 5, 1)],
        [receiptEntry(41, "EXP", "T00000002", 2, 2)]
      ])
      assert.deepStrictEqual(log.argsOf("ReceivingRepository.addReceived"), [[3, 1, 5], [3, 2, 2]])
      assert.deepStrictEqual(log.argsOf("ReceivingRepository.setStatus"), [[3, 3]])
      assert.deepStrictEqual(events, [
        { event_type: "preadvice_received", site_id: "main", client_id: null, data: shown }
      ])
    })
  })

  it.effect("a partial receipt keeps the location, tag and expiry given; the pre-advice is In Receipt", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      const lines = [receipt({ line: 1, qty: 2, loc_id: "A-07", tag_id: "PALLET-1", expiry_date: "2031-05-01" })]
      const { events } = yield* withReceiving(
        log,
        Option.some(preAdvice()),
        (receiving) => receiving.receive(siteActor, "PA-1", { lines })
      )
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertContent"), [[content({
        loc_id: "A-07",
        tag_id: "PALLET-1",
        expiry_date: "2031-05-01",
        qty: 2,
        created_at: "1970-01-01T00:00:00.000Z"
      })]])
      assert.isFalse(log.methods.includes("InventoryRepository.nextTagId"))
      assert.deepStrictEqual(log.argsOf("ReceivingRepository.setStatus"), [[3, 2]])
      assert.deepStrictEqual(events, [])
    })
  })

  it.effect("a receipt that leaves the status as it was does not set it again", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* withReceiving(
        log,
        Option.some(preAdvice({ status_id: 2 })),
        (receiving) => receiving.receive(siteActor, "PA-1", { lines: [receipt({ line: 1, qty: 1 })] })
      )
      assert.deepStrictEqual(log.argsOf("ReceivingRepository.setStatus"), [])
    })
  })

  it.effect("more than still expected, or an unknown line, is a 400 naming the receipt line; nothing is received", () =>
    Effect.gen(function*() {
      const attempt = (lines: ReadonlyArray<ReceiptLine>) => {
        const log = new CallLog()
        return Effect.map(
          failure(
            withReceiving(log, Option.some(preAdvice()), (receiving) => receiving.receive(siteActor, "PA-1", { lines }))
          ),
          (error) => [...error, log.methods]
        )
      }
      const refused = ["Transactor.begin", "ReceivingRepository.lockPreAdvice", "Transactor.rollback"]
      assert.deepStrictEqual(yield* attempt([receipt({ line: 2, qty: 3 })]), [
        "InvalidInput",
        "Invalid field lines.0.qty: receiving 3 of line 2 exceeds the 2 still expected",
        refused
      ])
      // Receipts of one line add up.
      assert.deepStrictEqual(yield* attempt([receipt({ line: 1, qty: 1 }), receipt({ line: 1, qty: 5 })]), [
        "InvalidInput",
        "Invalid field lines.1.qty: receiving 6 of line 1 exceeds the 5 still expected",
        refused
      ])
      assert.deepStrictEqual(yield* attempt([receipt({ line: 1, qty: 1 }), receipt({ line: 9, qty: 1 })]), [
        "InvalidInput",
        "Invalid field lines.1.line: line 9 does not exist",
        refused
      ])
    }))

  it.effect("a pre-advice with nothing left to receive is a 409; a missing one a 404", () =>
    Effect.gen(function*() {
      const received = preAdvice({
        status_id: 3,
        lines: [{ line: 1, sku_id: "A", qty: 5, qty_received: 5, client_id: null }]
      })
      assert.deepStrictEqual(
        yield* failure(
          withReceiving(new CallLog(), Option.some(received), (r) => r.receive(siteActor, "PA-1", { lines: null }))
        ),
        ["PreAdviceNothingToReceive", "PreAdvice with PreAdviceID PA-1 has nothing left to receive"]
      )
      assert.deepStrictEqual(
        yield* failure(
          withReceiving(new CallLog(), Option.none(), (r) => r.receive(siteActor, "NOPE", { lines: null }))
        ),
        ["PreAdviceNotFound", "PreAdvice with PreAdviceID NOPE not found"]
      )
    }))
})
