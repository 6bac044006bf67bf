import { assert, describe, it } from "@effect/vitest"
import {
  ClientId,
  type Content,
  defaultSiteSettings,
  InventoryRepository,
  LocationRepository,
  type LocationWithOccupancy,
  MovementTaskRepository,
  type NewMovementTask,
  PickFaceRepository,
  PickFaceRoomsLive,
  PreAdvices,
  type PreAdviceToReceive,
  type ReceiptLine,
  ReceiptPutawayLive,
  Receiving,
  ReceivingRepository,
  SiteSettingsRepository,
  type Sku,
  SkuRepository,
  UserId
} from "@wms/core"
import { CallLog, makeTestEventPublisher, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option, TestClock } from "effect"
import { failure, location, siteActor, sku } from "./Fixtures.js"

/** Receiving on its ports, with movement's putaway (on replenishment's pick faces) behind `ReceiptPutaway`. */
const receivingLayer = Receiving.Default.pipe(Layer.provide(ReceiptPutawayLive), Layer.provide(PickFaceRoomsLive))

const now = Date.parse("2030-05-01T10:00:00.000Z")
const createdAt = new Date(now).toISOString()

/** PA-1 (ref 3): line 1 expects 5 of A; line 2, of its own client c2, 3 of EXP (10 days' expiry), 1 in already. */
const preAdvice = (fields: Partial<PreAdviceToReceive> = {}): PreAdviceToReceive => ({
  ref: 3,
  pre_advice_id: "PA-1",
  client_id: null,
  status_id: 1,
  transfer: null,
  lines: [
    { line: 1, sku_id: "A", qty: 5, qty_received: 0, client_id: null, tag_id: null, expiry_date: null, qty_lost: 0 },
    {
      line: 2,
      sku_id: "EXP",
      qty: 3,
      qty_received: 1,
      client_id: ClientId.make("c2"),
      tag_id: null,
      expiry_date: null,
      qty_lost: 0
    }
  ],
  ...fields
})

/** The pre-advice as `GET /preadvices/:id` shows it once received, for the event. */
const shown: Effect.Effect.Success<ReturnType<PreAdvices["getPreAdvice"]>> = {
  pre_advice_id: "PA-1",
  client_id: null,
  pre_advice_status: { id: 3, description: "Received" },
  supplier: null,
  creation_datetime: "01-05-2030 09:00:00",
  created_by: UserId.make("user-1"),
  lines: []
}

/** The site's setting, its managed locations (all putaway candidates), and the SKUs' putaway fields. */
interface Site {
  readonly putawayOnReceipt?: boolean
  readonly managed?: ReadonlyArray<LocationWithOccupancy>
  readonly skus?: Partial<Record<string, Partial<Sku>>>
}

const withReceiving = <A, E>(
  log: CallLog,
  found: Option.Option<PreAdviceToReceive>,
  f: (receiving: Receiving) => Effect.Effect<A, E>,
  site: Site = {}
) => {
  const events = makeTestEventPublisher()
  let tags = 0
  let contents = 40
  const inventory: Partial<Context.Tag.Service<InventoryRepository>> = {
    nextTagIds: (_, count) => Effect.sync(() => Array.from({ length: count }, () => `T0000000${++tags}`)),
    insertContents: (rows) => Effect.sync(() => rows.map(() => contents++)),
    appendTransactions: () => Effect.void,
    setQuantitiesOf: () => Effect.void,
    holdsOn: () => Effect.succeed(new Map())
  }
  const managed = site.managed ?? []
  let tasks = 100
  return Effect.flatMap(Receiving, f).pipe(
    Effect.map((result) => ({ result, events: events.published })),
    Effect.provide(receivingLayer.pipe(Layer.provide([
      makeTestLayer(ReceivingRepository)({
        lockPreAdvice: () => Effect.succeed(found),
        receivingLocation: () => Effect.succeed("RECEIVING"),
        addReceivedLines: () => Effect.void,
        setStatus: () => Effect.void
      }, log),
      makeTestLayer(InventoryRepository)(inventory, log),
      makeTestLayer(SkuRepository)({
        findMany: (_, skuIds) =>
          Effect.succeed(
            new Map(skuIds.map((skuId) => [
              skuId,
              skuId === "EXP"
                ? sku({ sku_id: skuId, expiry_sku: true, expiry_days: 10, ...site.skus?.[skuId] })
                : sku({ sku_id: skuId, ...site.skus?.[skuId] })
            ]))
          )
      }, log),
      makeTestLayer(SiteSettingsRepository)({
        get: () => Effect.succeed({ ...defaultSiteSettings, putaway_on_receipt: site.putawayOnReceipt ?? false })
      }, log),
      makeTestLayer(LocationRepository)({
        lockMany: (_, ids) => Effect.succeed(managed.filter((l) => ids.includes(l.loc_id))),
        lockPutawayCandidates: (_, preferred, also = []) =>
          Effect.succeed(
            managed.filter((l) => l.loc_type === "Storage" || l.loc_id === preferred || also.includes(l.loc_id))
          )
      }, log),
      makeTestLayer(MovementTaskRepository)({
        insert: (rows) => Effect.sync(() => rows.map(() => ++tasks))
      }, log),
      makeTestLayer(PreAdvices)({ getPreAdvice: () => Effect.succeed(shown) }, log),
      // No pick faces: putaway plans on storage alone (replenishment's own tests cover faces).
      makeTestLayer(PickFaceRepository)({ ofSkus: () => Effect.succeed([]), lockAt: () => Effect.succeed([]) }),
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
  it.effect("a transfer's stock comes in with TransferIn, its shipped tag and expiry, never more than is left, and tells both sites", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const transfer = preAdvice({
        pre_advice_id: "TR-south-T1",
        status_id: 26,
        transfer: { order_id: "T1", from_site: "south" },
        lines: [
          {
            line: 1,
            sku_id: "EXP",
            qty: 5,
            qty_received: 0,
            client_id: null,
            tag_id: "L-1",
            expiry_date: "2031-01-31",
            qty_lost: 0
          },
          {
            line: 2,
            sku_id: "A",
            qty: 4,
            qty_received: 1,
            client_id: null,
            tag_id: "L-2",
            expiry_date: null,
            qty_lost: 2
          }
        ]
      })
      // What a short-close wrote off is not expected any more: line 2 has 1 left.
      assert.deepStrictEqual(
        yield* failure(withReceiving(
          new CallLog(),
          Option.some(transfer),
          (receiving) =>
            receiving.receive(siteActor, "TR-south-T1", { lines: [receipt({ line: 2, qty: 2 })], putaway: null })
        )),
        ["InvalidInput", "Invalid field lines.0.qty: receiving 2 of line 2 exceeds the 1 still expected"]
      )
      const { events } = yield* withReceiving(
        log,
        Option.some(transfer),
        (receiving) =>
          receiving.receive(siteActor, "TR-south-T1", {
            lines: [
              receipt({ line: 1, qty: 3 }),
              receipt({ line: 2, qty: 1, tag_id: "NEW", expiry_date: "2032-02-02" })
            ],
            putaway: null
          })
      )
      // No generated tag and no SKU's default expiry: the line's own, unless the receipt names others.
      assert.notInclude(log.methods, "InventoryRepository.nextTagIds")
      assert.notInclude(log.methods, "SkuRepository.findMany")
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertContents"), [[[
        content({ sku_id: "EXP", tag_id: "L-1", expiry_date: "2031-01-31", qty: 3 }),
        content({ sku_id: "A", tag_id: "NEW", expiry_date: "2032-02-02", qty: 1 })
      ]]])
      const [[entries]] = log.argsOf("InventoryRepository.appendTransactions") as unknown as [
        [ReadonlyArray<Record<string, unknown>>]
      ]
      assert.deepStrictEqual(
        entries.map((e) => [e.transaction_type, e.qty, e.order_id, e.line_id, e.notes]),
        [["TransferIn", 3, "T1", 1, "Transfer T1"], ["TransferIn", 1, "T1", 2, "Transfer T1"]]
      )
      assert.deepStrictEqual(log.argsOf("ReceivingRepository.setStatus"), [[3, 2]])
      assert.deepStrictEqual(
        events.map((e) => [e.event_type, e.site_id, e.client_id]),
        [["transfer_received", "main", null], ["transfer_received", "south", null]]
      )
    })
  })

  it.effect("without lines everything still expected comes in: a content and a Receipt per line, then Received", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const { events, result } = yield* withReceiving(
        log,
        Option.some(preAdvice()),
        (receiving) => receiving.receive(siteActor, "PA-1", { lines: null, putaway: null })
      )
      // Without putaway, asked for or set for the site, the receipt answers nothing (204).
      assert.deepStrictEqual(result, Option.none())
      // What the receipt needs is read once, and each table written once, whatever its lines.
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "ReceivingRepository.lockPreAdvice",
        "SiteSettingsRepository.get",
        "ReceivingRepository.receivingLocation",
        "LocationRepository.lockMany",
        "SkuRepository.findMany",
        "InventoryRepository.nextTagIds",
        "InventoryRepository.insertContents",
        "InventoryRepository.appendTransactions",
        "ReceivingRepository.addReceivedLines",
        "InventoryRepository.holdsOn",
        "ReceivingRepository.setStatus",
        "PreAdvices.getPreAdvice",
        "Transactor.commit"
      ])
      // At the receiving location, under generated tags; an expiry SKU expires its expiry_days from today.
      assert.deepStrictEqual(log.argsOf("InventoryRepository.nextTagIds"), [["main", 2]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertContents"), [[[
        content({}),
        content({
          client_id: ClientId.make("c2"),
          sku_id: "EXP",
          tag_id: "T00000002",
          expiry_date: "2030-05-11",
          qty: 2
        })
      ]]])
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
        notes: "PreAdvice PA-1",
        from_content_id: null,
        reason_code: null
      })
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions"), [[[
        receiptEntry(40, "A", "T00000001", 5, 1),
        receiptEntry(41, "EXP", "T00000002", 2, 2)
      ]]])
      assert.deepStrictEqual(log.argsOf("ReceivingRepository.addReceivedLines"), [[3, new Map([[1, 5], [2, 2]])]])
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
        (receiving) => receiving.receive(siteActor, "PA-1", { lines, putaway: null })
      )
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertContents"), [[[content({
        loc_id: "A-07",
        tag_id: "PALLET-1",
        expiry_date: "2031-05-01",
        qty: 2,
        created_at: "1970-01-01T00:00:00.000Z"
      })]]])
      assert.isFalse(log.methods.includes("InventoryRepository.nextTagIds"))
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
        (receiving) => receiving.receive(siteActor, "PA-1", { lines: [receipt({ line: 1, qty: 1 })], putaway: null })
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
            withReceiving(
              log,
              Option.some(preAdvice()),
              (receiving) => receiving.receive(siteActor, "PA-1", { lines, putaway: null })
            )
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
        lines: [{
          line: 1,
          sku_id: "A",
          qty: 5,
          qty_received: 5,
          client_id: null,
          tag_id: null,
          expiry_date: null,
          qty_lost: 0
        }]
      })
      assert.deepStrictEqual(
        yield* failure(
          withReceiving(new CallLog(), Option.some(received), (r) =>
            r.receive(siteActor, "PA-1", { lines: null, putaway: null }))
        ),
        ["PreAdviceNothingToReceive", "PreAdvice with PreAdviceID PA-1 has nothing left to receive"]
      )
      assert.deepStrictEqual(
        yield* failure(
          withReceiving(new CallLog(), Option.none(), (r) =>
            r.receive(siteActor, "NOPE", { lines: null, putaway: null }))
        ),
        ["PreAdviceNotFound", "PreAdvice with PreAdviceID NOPE not found"]
      )
    }))

  it.effect("with putaway the stock received at the receiving location gets its tasks in the same transaction", () => {
    const log = new CallLog()
    // A: full pallets of 2, preferred P-01 (room for one tag). S-01 is client c9's; S-02 comes before it.
    const managed = [
      location({ loc_id: "P-01", max_tags: 1 }),
      location({ loc_id: "S-01", sequence: 1, client_id: "c9" }),
      location({ loc_id: "S-02", sequence: 1 })
    ]
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const { result } = yield* withReceiving(
        log,
        Option.some(preAdvice()),
        (receiving) => receiving.receive(siteActor, "PA-1", { lines: null, putaway: true }),
        { managed, skus: { A: { preferred_putaway_location: "P-01", qty_on_full_pallet: 2 } } }
      )
      // EXP of client c2 finds only locations holding, or dedicated to, another client: it stays.
      assert.deepStrictEqual(result, Option.some({ tasks: [101, 102, 103], unplaced: [{ content_id: 41, qty: 2 }] }))
      assert.deepStrictEqual(log.methods.slice(log.methods.lastIndexOf("ReceivingRepository.addReceivedLines") + 1), [
        "InventoryRepository.holdsOn",
        "SkuRepository.findMany",
        "LocationRepository.lockPutawayCandidates",
        "InventoryRepository.setQuantitiesOf",
        "MovementTaskRepository.insert",
        "InventoryRepository.appendTransactions",
        "ReceivingRepository.setStatus",
        "PreAdvices.getPreAdvice",
        "Transactor.commit"
      ])
      // Locked for update: the receiving location is no candidate, but a status change must wait.
      assert.deepStrictEqual(log.argsOf("LocationRepository.lockMany"), [["main", ["RECEIVING"], "update"]])
      // Once for the whole run: Storage, and every preferred location and pick face of its SKUs.
      assert.deepStrictEqual(log.argsOf("LocationRepository.lockPutawayCandidates"), [["main", null, ["P-01"]]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.setQuantitiesOf"), [[
        new Map([[40, { qty: 5, qty_allocated: 0, qty_tasked_from: 5 }]])
      ]])
      const task = (to_loc_id: string, qty: number) => ({
        site_id: "main",
        client_id: null,
        task_type: "Putaway",
        status_id: 1,
        content_id: 40,
        sku_id: "A",
        tag_id: "T00000001",
        qty,
        from_loc_id: "RECEIVING",
        to_loc_id,
        final_loc_id: to_loc_id,
        created_by: "user-1",
        reason: null,
        created_at: createdAt
      })
      // A pallet to the preferred location, the next where it has no room, the rest after it.
      assert.deepStrictEqual(log.argsOf("MovementTaskRepository.insert"), [[[
        task("P-01", 2),
        task("S-02", 2),
        task("S-02", 1)
      ]]])
      const taskRow = (id: number, to: string, qty: number) => ({
        site_id: "main",
        client_id: null,
        created_at: createdAt,
        transaction_type: "Task",
        content_id: 40,
        from_loc_id: "RECEIVING",
        to_loc_id: to,
        final_loc_id: to,
        sku_id: "A",
        qty,
        tag_id: "T00000001",
        order_id: null,
        line_id: null,
        notes: `Movement task ${id}`,
        from_content_id: null,
        reason_code: null
      })
      // After the receipt's own rows, the tasks'.
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransactions").slice(1), [[[
        taskRow(101, "P-01", 2),
        taskRow(102, "S-02", 2),
        taskRow(103, "S-02", 1)
      ]]])
    })
  })

  it.effect("the request's putaway wins over the site's setting; without one the setting says", () =>
    Effect.gen(function*() {
      const receive = (putaway: boolean | null, putawayOnReceipt: boolean) => {
        const log = new CallLog()
        return Effect.map(
          withReceiving(
            log,
            Option.some(preAdvice()),
            (receiving) => receiving.receive(siteActor, "PA-1", { lines: [receipt({ line: 1, qty: 1 })], putaway }),
            { putawayOnReceipt, managed: [location()] }
          ),
          ({ result }) => [result, log.methods.includes("SiteSettingsRepository.get")]
        )
      }
      const report = Option.some({ tasks: [101], unplaced: [] })
      assert.deepStrictEqual(yield* receive(false, true), [Option.none(), false])
      assert.deepStrictEqual(yield* receive(true, false), [report, false])
      assert.deepStrictEqual(yield* receive(null, true), [report, true])
      assert.deepStrictEqual(yield* receive(null, false), [Option.none(), true])
    }))

  it.effect("a receipt into a managed location whose status keeps stock out is a 409 naming it; nothing is received", () =>
    Effect.gen(function*() {
      for (const status of ["Blocked In", "Blocked", "Counting"] as const) {
        const log = new CallLog()
        const lines = [receipt({ line: 1, qty: 1 }), receipt({ line: 1, qty: 1, loc_id: "DOOR-2" })]
        assert.deepStrictEqual(
          yield* failure(withReceiving(
            log,
            Option.some(preAdvice()),
            (receiving) => receiving.receive(siteActor, "PA-1", { lines, putaway: false }),
            { managed: [location({ loc_id: "DOOR-2", loc_type: "Receiving", status })] }
          )),
          ["LocationStatusRefuses", `Location DOOR-2 is ${status}`]
        )
        assert.deepStrictEqual(log.argsOf("LocationRepository.lockMany"), [["main", ["DOOR-2", "RECEIVING"], "share"]])
        assert.isFalse(log.methods.includes("InventoryRepository.insertContents"))
        assert.strictEqual(log.methods.at(-1), "Transactor.rollback")
      }
    }))

  it.effect("putaway takes stock at receiving locations only; at one that lets no stock out it stays, unplaced", () => {
    const log = new CallLog()
    const managed = [
      location({ loc_id: "DOOR-1", loc_type: "Receiving", status: "Blocked Out" }),
      location({ loc_id: "DOOR-2", loc_type: "Receiving" }),
      location({ loc_id: "S-01" })
    ]
    const lines = [
      receipt({ line: 1, qty: 1, loc_id: "DOOR-1" }),
      receipt({ line: 1, qty: 1, loc_id: "DOOR-2" }),
      receipt({ line: 1, qty: 1, loc_id: "S-01" }),
      // An unmanaged location other than the site's receiving location is no receiving location.
      receipt({ line: 1, qty: 1, loc_id: "FLOOR" }),
      receipt({ line: 1, qty: 1 })
    ]
    return Effect.gen(function*() {
      const { result } = yield* withReceiving(
        log,
        Option.some(preAdvice()),
        (receiving) => receiving.receive(siteActor, "PA-1", { lines, putaway: true }),
        { managed }
      )
      assert.deepStrictEqual(result, Option.some({ tasks: [101, 102], unplaced: [{ content_id: 40, qty: 1 }] }))
      assert.deepStrictEqual(
        (log.argsOf("MovementTaskRepository.insert")[0][0] as Array<NewMovementTask>).map((
          t
        ) => [t.content_id, t.to_loc_id]),
        [[41, "S-01"], [44, "S-01"]]
      )
    })
  })
})
