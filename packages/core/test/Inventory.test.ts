import { assert, describe, it } from "@effect/vitest"
import {
  type AdjustmentRequest,
  ClientId,
  type Content,
  Inventory,
  InventoryRepository,
  LocationRepository,
  type LocationWithOccupancy,
  type NewLedgerEntry,
  SiteId,
  SkuRepository
} from "@wms/core"
import { CallLog, makeTestLayer, testTransactor } from "@wms/core/testing"
import { type Context, Effect, Layer, Option, TestClock } from "effect"
import { clientActor, failure, location, siteActor, sku } from "./Fixtures.js"

type Repository = Context.Tag.Service<InventoryRepository>

const now = Date.parse("2030-05-01T10:00:00.000Z")

const content = (fields: Partial<Content> = {}): Content => ({
  content_id: 7,
  site_id: SiteId.make("main"),
  client_id: null,
  sku_id: "A",
  loc_id: "A-01",
  tag_id: "T-1",
  expiry_date: null,
  qty: 2,
  qty_allocated: 0,
  qty_tasked_from: 0,
  created_at: "2030-01-01T00:00:00.000Z",
  ...fields
})

const request = (fields: Partial<AdjustmentRequest> & Pick<AdjustmentRequest, "qty">): AdjustmentRequest => ({
  content_id: null,
  sku_id: null,
  loc_id: null,
  tag_id: null,
  expiry_date: null,
  notes: null,
  reason_code: null,
  ...fields
})

/** Content 7 (or `stored`), and SKU A of the site, EXP of the site with 30 days' expiry, C2 of client c2. */
const store = (stored: Content = content(), more: Partial<Repository> = {}): Partial<Repository> => ({
  lockContent: (_, id) => Effect.succeed(id === stored.content_id ? Option.some(stored) : Option.none()),
  setQuantities: () => Effect.void,
  appendTransaction: () => Effect.succeed(1),
  holdsOn: () => Effect.succeed(new Map()),
  ...more
})

const skus = {
  find: (_: SiteId, skuId: string) =>
    Effect.succeed(
      skuId === "A"
        ? Option.some(sku())
        : skuId === "EXP"
        ? Option.some(sku({ sku_id: "EXP", expiry_sku: true, expiry_days: 30 }))
        : skuId === "C2"
        ? Option.some(sku({ sku_id: "C2", client_id: "c2" }))
        : Option.none()
    )
}

const withInventory = <A, E>(
  log: CallLog,
  repository: Partial<Repository>,
  f: (inventory: Inventory) => Effect.Effect<A, E>,
  managed: ReadonlyArray<LocationWithOccupancy> = []
) =>
  Effect.flatMap(Inventory, f).pipe(Effect.provide(Inventory.Default.pipe(Layer.provide([
    makeTestLayer(InventoryRepository)(repository, log),
    makeTestLayer(SkuRepository)(skus, log),
    makeTestLayer(LocationRepository)({
      lockMany: (_, ids) => Effect.succeed(managed.filter((l) => ids.includes(l.loc_id)))
    }, log),
    testTransactor(log)
  ]))))

/** The content id and the quantities each `setQuantities` call set. */
const quantitiesSet = (log: CallLog) =>
  log.argsOf("InventoryRepository.setQuantities").map(([id, q]) => {
    const { qty, qty_allocated, qty_tasked_from } = q as Content
    return [id, { qty, qty_allocated, qty_tasked_from }]
  })

const adjustment = (fields: {
  readonly content_id: number
  readonly tag_id: string
  readonly qty: number
  readonly notes: string | null
  readonly loc_id?: string
}) => ({
  site_id: "main",
  client_id: null,
  created_at: new Date(now).toISOString(),
  transaction_type: "Adjustment",
  content_id: fields.content_id,
  from_loc_id: fields.loc_id ?? "A-01",
  to_loc_id: fields.loc_id ?? "A-01",
  final_loc_id: fields.loc_id ?? "A-01",
  sku_id: "A",
  qty: fields.qty,
  tag_id: fields.tag_id,
  order_id: null,
  line_id: null,
  notes: fields.notes,
  from_content_id: null,
  reason_code: null
})

describe("Inventory", () => {
  it.effect("an adjustment of a content changes its qty by the signed amount and writes one Adjustment entry", () => {
    const log = new CallLog()
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      yield* withInventory(
        log,
        store(content({ qty: 10 })),
        (inventory) => inventory.adjust(siteActor, request({ content_id: 7, qty: -4, notes: "count" }))
      )
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "InventoryRepository.lockContent",
        "LocationRepository.lockMany",
        "InventoryRepository.setQuantities",
        "InventoryRepository.appendTransaction",
        "Transactor.commit"
      ])
      assert.deepStrictEqual(quantitiesSet(log), [[7, { qty: 6, qty_allocated: 0, qty_tasked_from: 0 }]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransaction"), [[
        adjustment({ content_id: 7, tag_id: "T-1", qty: -4, notes: "count" })
      ]])
    })
  })

  it.effect("stock never falls below zero nor below what is allocated or tasked: 409 naming the content", () =>
    Effect.gen(function*() {
      const attempt = (stored: Content, qty: number) => {
        const log = new CallLog()
        const adjust = (inventory: Inventory) => inventory.adjust(siteActor, request({ content_id: 7, qty }))
        return Effect.map(
          failure(withInventory(log, store(stored), adjust)),
          (error) => [...error, log.methods.slice(1)]
        )
      }
      const refused = ["InventoryRepository.lockContent", "LocationRepository.lockMany", "Transactor.rollback"]
      assert.deepStrictEqual(yield* attempt(content({ qty: 2 }), -3), [
        "StockShort",
        "Content 7 cannot go from 2 to -1: 0 of it is allocated or tasked, 2 is available",
        refused
      ])
      assert.deepStrictEqual(yield* attempt(content({ qty: 10, qty_allocated: 4, qty_tasked_from: 2 }), -5), [
        "StockShort",
        "Content 7 cannot go from 10 to 5: 6 of it is allocated or tasked, 4 is available",
        refused
      ])
      assert.deepStrictEqual(yield* attempt(content({ qty: 2147483640 }), 8), [
        "ContentFull",
        "Inventory content with contentId 7 cannot hold more than 2147483647",
        refused
      ])
    }))

  it.effect("by key the adjustment goes to the content at that key; an expiry SKU's key defaults to its expiry", () => {
    const log = new CallLog()
    const found = content({ content_id: 8, sku_id: "EXP", loc_id: "B-01", expiry_date: "2030-05-31", qty: 5 })
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const repository = store(content(), { lockContentAt: () => Effect.succeed(Option.some(found)) })
      yield* withInventory(
        log,
        repository,
        (inventory) => inventory.adjust(siteActor, request({ sku_id: "EXP", loc_id: "B-01", qty: 1 }))
      )
      // Without a tag: whatever content lies at the location with that SKU and expiry.
      assert.deepStrictEqual(log.argsOf("InventoryRepository.lockContentAt"), [[
        { site_id: "main", client_id: null },
        { sku_id: "EXP", loc_id: "B-01", tag_id: null, expiry_date: "2030-05-31" }
      ]])
      assert.deepStrictEqual(quantitiesSet(log), [[8, { qty: 6, qty_allocated: 0, qty_tasked_from: 0 }]])
    })
  })

  it.effect("a positive adjustment where no content is creates one, under a generated tag when none is given", () => {
    const log = new CallLog()
    const repository = store(content(), {
      lockContentAt: () => Effect.succeed(Option.none()),
      nextTagId: () => Effect.succeed("T00000009"),
      insertContent: () => Effect.succeed(9)
    })
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      yield* withInventory(
        log,
        repository,
        (inventory) => inventory.adjust(siteActor, request({ sku_id: "A", loc_id: "A-02", qty: 3 }))
      )
      assert.deepStrictEqual(log.methods, [
        "Transactor.begin",
        "SkuRepository.find",
        "InventoryRepository.lockContentAt",
        "InventoryRepository.nextTagId",
        "LocationRepository.lockMany",
        "InventoryRepository.insertContent",
        "InventoryRepository.setQuantities",
        "InventoryRepository.appendTransaction",
        "InventoryRepository.holdsOn",
        "Transactor.commit"
      ])
      const { content_id: _, ...fresh } = content({
        loc_id: "A-02",
        tag_id: "T00000009",
        qty: 0,
        created_at: new Date(now).toISOString()
      })
      assert.deepStrictEqual(log.argsOf("InventoryRepository.insertContent"), [[fresh]])
      assert.deepStrictEqual(quantitiesSet(log), [[9, { qty: 3, qty_allocated: 0, qty_tasked_from: 0 }]])
      assert.deepStrictEqual(log.argsOf("InventoryRepository.appendTransaction"), [[
        adjustment({ content_id: 9, tag_id: "T00000009", qty: 3, notes: null, loc_id: "A-02" })
      ]])
    })
  })

  it.effect("stock adjusted into an empty content of a held scope gets a Hold row per hold covering it (H4)", () => {
    const log = new CallLog()
    const held = new Map([[7, [{ hold_id: 3, reason_code: "QA" }, { hold_id: 5, reason_code: "Recall" }]]])
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const adjust = (stored: Content, qty: number) =>
        withInventory(
          log,
          store(stored, { holdsOn: () => Effect.succeed(held), appendTransactions: () => Effect.void }),
          (inventory) => inventory.adjust(siteActor, request({ content_id: 7, qty }))
        )
      yield* adjust(content({ qty: 0 }), 4)
      assert.deepStrictEqual(
        (log.argsOf("InventoryRepository.appendTransactions").flat(2) as Array<NewLedgerEntry>).map((row) => [
          row.transaction_type,
          row.content_id,
          row.qty,
          row.reason_code,
          row.notes
        ]),
        [["Hold", 7, 4, "QA", "Hold 3"], ["Hold", 7, 4, "Recall", "Hold 5"]]
      )
      // Stock already there had its Hold rows when it entered: none more, and no read of the holds.
      const before = log.methods.length
      yield* adjust(content({ qty: 2 }), 4)
      assert.notInclude(log.methods.slice(before), "InventoryRepository.holdsOn")
    })
  })

  it.effect("a negative adjustment where there is no content is a 400 naming tag_id, or content_id if tagged", () =>
    Effect.gen(function*() {
      const repository = store(content(), { lockContentAt: () => Effect.succeed(Option.none()) })
      const attempt = (tag_id: string | null) => {
        const log = new CallLog()
        return Effect.map(
          failure(
            withInventory(
              log,
              repository,
              (inventory) => inventory.adjust(siteActor, request({ sku_id: "A", loc_id: "A-02", tag_id, qty: -1 }))
            )
          ),
          (error) => [...error, log.methods.includes("InventoryRepository.insertContent")]
        )
      }
      const why = "a negative adjustment needs an existing content: none of SKU A at A-02"
      assert.deepStrictEqual(yield* attempt(null), ["InvalidInput", `Invalid field tag_id: ${why}`, false])
      assert.deepStrictEqual(yield* attempt("T-9"), ["InvalidInput", `Invalid field content_id: ${why}`, false])
    }))

  it.effect("an adjustment names a content, or a SKU and a location the scope may use; else a 400 or 404", () =>
    Effect.gen(function*() {
      const adjust = (actor: typeof siteActor, fields: Partial<AdjustmentRequest>) =>
        failure(
          withInventory(new CallLog(), store(), (inventory) => inventory.adjust(actor, request({ qty: 1, ...fields })))
        )
      assert.deepStrictEqual(yield* adjust(siteActor, { content_id: 9 }), [
        "ContentNotFound",
        "Inventory content with contentId 9 not found"
      ])
      assert.deepStrictEqual(yield* adjust(siteActor, {}), [
        "InvalidInput",
        "Invalid field sku_id: is required when content_id is absent"
      ])
      assert.deepStrictEqual(yield* adjust(siteActor, { sku_id: "A" }), [
        "InvalidInput",
        "Invalid field loc_id: is required when content_id is absent"
      ])
      assert.deepStrictEqual(yield* adjust(siteActor, { sku_id: "NOPE", loc_id: "A" }), [
        "InvalidInput",
        "Invalid field sku_id: SKU NOPE does not exist"
      ])
      // Client c1 may not touch client c2's SKU, which a site scope could.
      const c1 = { ...clientActor, scope: { ...clientActor.scope, site_id: SiteId.make("main") } }
      assert.deepStrictEqual(yield* adjust(c1, { sku_id: "C2", loc_id: "A" }), [
        "InvalidInput",
        "Invalid field sku_id: SKU C2 does not exist"
      ])
      const log = new CallLog()
      const ofC2 = content({ client_id: ClientId.make("c2") })
      yield* withInventory(
        log,
        store(content(), { lockContentAt: () => Effect.succeed(Option.some(ofC2)) }),
        (inventory) => inventory.adjust(siteActor, request({ sku_id: "C2", loc_id: "A", qty: 1 }))
      )
      const [[owner]] = log.argsOf("InventoryRepository.lockContentAt")
      assert.deepStrictEqual(owner, { site_id: "main", client_id: "c2" })
    }))

  it.effect("at a managed location a positive adjustment needs a status that takes stock in, a negative one lets it out", () =>
    Effect.gen(function*() {
      const attempt = (status: LocationWithOccupancy["status"], qty: number) => {
        const log = new CallLog()
        return withInventory(
          log,
          store(content({ qty: 10 })),
          (inventory) => inventory.adjust(siteActor, request({ content_id: 7, qty })),
          [location({ loc_id: "A-01", status })]
        ).pipe(
          Effect.match({ onFailure: (e) => [e._tag, e.message], onSuccess: () => ["Done"] }),
          Effect.map((outcome) => [...outcome, log.argsOf("LocationRepository.lockMany")[0]])
        )
      }
      // The location is held against a status change until the adjustment commits.
      const lock = ["main", ["A-01"], "share"]
      assert.deepStrictEqual(yield* attempt("Active", 1), ["Done", lock])
      assert.deepStrictEqual(yield* attempt("Blocked Out", 1), ["Done", lock])
      assert.deepStrictEqual(yield* attempt("Blocked In", -1), ["Done", lock])
      for (const status of ["Blocked In", "Blocked", "Counting"] as const) {
        assert.deepStrictEqual(yield* attempt(status, 1), [
          "LocationStatusRefuses",
          `Location A-01 is ${status}`,
          lock
        ])
      }
      for (const status of ["Blocked Out", "Blocked", "Counting"] as const) {
        assert.deepStrictEqual(yield* attempt(status, -1), [
          "LocationStatusRefuses",
          `Location A-01 is ${status}`,
          lock
        ])
      }
    }))

  it.effect("a refused adjustment by key creates no content; capacity never refuses one", () =>
    Effect.gen(function*() {
      const repository = store(content(), {
        lockContentAt: () => Effect.succeed(Option.none()),
        nextTagId: () => Effect.succeed("T00000009"),
        insertContent: () => Effect.succeed(9)
      })
      const log = new CallLog()
      const adjust = (inventory: Inventory) =>
        inventory.adjust(siteActor, request({ sku_id: "A", loc_id: "B-01", qty: 3 }))
      assert.deepStrictEqual(
        yield* failure(withInventory(log, repository, adjust, [location({ loc_id: "B-01", status: "Blocked" })])),
        ["LocationStatusRefuses", "Location B-01 is Blocked"]
      )
      assert.isFalse(log.methods.includes("InventoryRepository.insertContent"))
      // A full location takes an adjustment: it is a fact, shown as over capacity.
      const full = location({ loc_id: "B-01", max_tags: 0, max_weight: 0 })
      yield* withInventory(new CallLog(), repository, adjust, [full])
    }))
})
