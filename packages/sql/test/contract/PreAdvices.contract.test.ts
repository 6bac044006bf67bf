/**
 * The contract of `PreAdviceRepository` and `ReceivingRepository` on both stores.
 */
import { assert, describe } from "@effect/vitest"
import {
  type NewStoredPreAdvice,
  type Owner,
  PreAdviceRepository,
  ReceivingRepository,
  type StatusId,
  type StoredPreAdviceLine,
  UserId
} from "@wms/core"
import { Effect, Option } from "effect"
import { insertPartner, insertSkus, makeTenants, onEachStore, waitsForCommit } from "./Contract.js"

const header = (owner: Owner, preAdviceId: string, supplierId: number | null = null): NewStoredPreAdvice => ({
  site_id: owner.site_id,
  pre_advice_id: preAdviceId,
  client_id: owner.client_id,
  status_id: 1,
  supplier_id: supplierId,
  created_at: "2030-01-01T08:00:00.000Z",
  created_by: UserId.make("tester")
})

/** Writes a pre-advice header; yields its key. */
const insertPreAdvice = (owner: Owner, preAdviceId: string, supplierId: number | null = null) =>
  Effect.flatMap(
    PreAdviceRepository,
    (preAdvices) => Effect.map(preAdvices.insert(header(owner, preAdviceId, supplierId)), Option.getOrThrow)
  )

/** The fields a line that no transfer made has null. */
const noTransfer = { tag_id: null, expiry_date: null, qty_lost: null }

const lineOf = (
  line: number,
  sku_id: string,
  qty: number,
  fields: Partial<Pick<StoredPreAdviceLine, "pallet_id" | "client_id">> = {}
) => ({
  line,
  sku_id,
  qty,
  pallet_id: null,
  client_id: null,
  ...fields
})

onEachStore("pre-advices", (it) => {
  describe("PreAdviceRepository", () => {
    it.effect("inserts a pre-advice once per site and finds it on its site with its supplier", () =>
      Effect.gen(function*() {
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const supplier = yield* insertPartner("supplier", t.client1.owner, "Supplier")
        const ref = Option.getOrThrow(yield* preAdvices.insert(header(t.client1.owner, "PA-1", supplier)))
        assert.strictEqual(typeof ref, "number")
        assert.isTrue(Option.isNone(yield* preAdvices.insert(header(t.client2.owner, "PA-1"))))
        assert.isTrue(Option.isSome(yield* preAdvices.insert(header(t.other.owner, "PA-1"))))
        assert.deepStrictEqual(
          yield* preAdvices.find(t.site.owner.site_id, "PA-1"),
          Option.some({
            ref,
            site_id: t.site.owner.site_id,
            pre_advice_id: "PA-1",
            client_id: t.client1.owner.client_id,
            status_id: 1 as StatusId,
            supplier: { id: supplier, name: "Supplier" },
            created_at: "2030-01-01T08:00:00.000Z",
            created_by: UserId.make("tester"),
            transfer: null
          })
        )
        const bare = yield* insertPreAdvice(t.site.owner, "PA-2")
        const found = Option.getOrThrow(yield* preAdvices.find(t.site.owner.site_id, "PA-2"))
        assert.deepStrictEqual([found.ref, found.client_id, found.supplier], [bare, null, null])
        assert.isTrue(Option.isNone(yield* preAdvices.find(t.site.owner.site_id, "pa-1")))
      }))

    it.effect("lists the pre-advices a scope sees in the order they were created, in pages", () =>
      Effect.gen(function*() {
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const refs = [
          yield* insertPreAdvice(t.client2.owner, "b"),
          yield* insertPreAdvice(t.site.owner, "A"),
          yield* insertPreAdvice(t.client1.owner, "a")
        ]
        yield* insertPreAdvice(t.other.owner, "o")
        const refsOf = (list: ReadonlyArray<{ readonly ref: number }>) => list.map((p) => p.ref)
        assert.deepStrictEqual(refsOf(yield* preAdvices.list(t.site.scope, {})), refs)
        assert.deepStrictEqual(refsOf(yield* preAdvices.list(t.client1.scope, {})), [refs[2]])
        assert.deepStrictEqual(refsOf(yield* preAdvices.list(t.site.scope, { limit: 1, offset: 1 })), [refs[1]])
        assert.deepStrictEqual(refsOf(yield* preAdvices.list(t.site.scope, { offset: 2 })), [refs[2]])
        assert.deepStrictEqual(refsOf(yield* preAdvices.list(t.site.scope, { limit: 2 })), refs.slice(0, 2))
      }))

    it.effect("changes only the header fields given, and removes a pre-advice with its lines", () =>
      Effect.gen(function*() {
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const supplier = yield* insertPartner("supplier", t.site.owner, "Supplier")
        const ref = yield* insertPreAdvice(t.site.owner, "PA-U", supplier)
        yield* preAdvices.update(ref, {})
        yield* preAdvices.update(ref, { client_id: t.client2.owner.client_id })
        let found = Option.getOrThrow(yield* preAdvices.find(t.site.owner.site_id, "PA-U"))
        assert.deepStrictEqual(
          [found.client_id, found.supplier],
          [t.client2.owner.client_id, { id: supplier, name: "Supplier" }]
        )
        yield* preAdvices.update(ref, { supplier_id: null, client_id: undefined })
        found = Option.getOrThrow(yield* preAdvices.find(t.site.owner.site_id, "PA-U"))
        assert.deepStrictEqual([found.client_id, found.supplier], [t.client2.owner.client_id, null])

        yield* preAdvices.insertLines(ref, [lineOf(1, "A", 1)])
        const kept = yield* insertPreAdvice(t.site.owner, "PA-K")
        yield* preAdvices.insertLines(kept, [lineOf(1, "A", 1)])
        yield* preAdvices.remove(ref)
        assert.isTrue(Option.isNone(yield* preAdvices.find(t.site.owner.site_id, "PA-U")))
        assert.deepStrictEqual(yield* preAdvices.lines(ref, {}), [])
        assert.strictEqual((yield* preAdvices.lines(kept, {})).length, 1)
      }))

    it.effect("locks a pre-advice: a second locker waits and sees the first's change", () =>
      Effect.gen(function*() {
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const ref = yield* insertPreAdvice(t.site.owner, "PA-L")
        assert.isTrue(yield* preAdvices.lock(ref))
        assert.isFalse(yield* preAdvices.lock(999_999))
        const seen = yield* waitsForCommit(
          Effect.zipRight(preAdvices.lock(ref), preAdvices.insertLines(ref, [lineOf(1, "A", 1)])),
          Effect.zipRight(preAdvices.lock(ref), preAdvices.maxLine(ref))
        )
        assert.strictEqual(seen, 1)
      }))

    it.effect("inserts the lines whose numbers are free, and pages, finds, changes and removes lines", () =>
      Effect.gen(function*() {
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const ref = yield* insertPreAdvice(t.site.owner, "PA-LN")
        assert.strictEqual(yield* preAdvices.maxLine(ref), 0)
        assert.deepStrictEqual(yield* preAdvices.insertLines(ref, []), [])
        const inserted = yield* preAdvices.insertLines(ref, [
          lineOf(2, "B", 2147483647, { pallet_id: "" }),
          lineOf(1, "A", 1, { client_id: t.client1.owner.client_id, pallet_id: "P1" })
        ])
        assert.deepStrictEqual([...inserted].sort(), [1, 2])
        assert.deepStrictEqual(yield* preAdvices.insertLines(ref, [lineOf(2, "X", 1), lineOf(10, "C", 3)]), [10])
        assert.strictEqual(yield* preAdvices.maxLine(ref), 10)

        const stored = [
          {
            ...lineOf(1, "A", 1, { client_id: t.client1.owner.client_id, pallet_id: "P1" }),
            qty_received: 0,
            ...noTransfer
          },
          { ...lineOf(2, "B", 2147483647, { pallet_id: "" }), qty_received: 0, ...noTransfer },
          { ...lineOf(10, "C", 3), qty_received: 0, ...noTransfer }
        ]
        assert.deepStrictEqual(yield* preAdvices.lines(ref, {}), stored)
        assert.deepStrictEqual(yield* preAdvices.lines(ref, { limit: 1, offset: 1 }), [stored[1]])
        assert.deepStrictEqual(yield* preAdvices.findLine(ref, 10), Option.some(stored[2]))
        assert.isTrue(Option.isNone(yield* preAdvices.findLine(ref, 3)))

        yield* preAdvices.updateLine(ref, 1, {})
        yield* preAdvices.updateLine(ref, 1, { pallet_id: null, client_id: null, qty: 4, sku_id: undefined })
        const changed = { ...stored[0], qty: 4, pallet_id: null, client_id: null }
        assert.deepStrictEqual(yield* preAdvices.findLine(ref, 1), Option.some(changed))
        yield* preAdvices.removeLine(ref, 2)
        yield* preAdvices.removeLine(ref, 2)
        assert.deepStrictEqual((yield* preAdvices.lines(ref, {})).map((l) => l.line), [1, 10])
      }))

    it.effect("names a supplier the scope sees, and tells the SKUs it sees", () =>
      Effect.gen(function*() {
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const supplier = yield* insertPartner("supplier", t.client1.owner, "Supplier")
        assert.deepStrictEqual(yield* preAdvices.supplierName(t.site.scope, supplier), Option.some("Supplier"))
        assert.deepStrictEqual(yield* preAdvices.supplierName(t.client1.scope, supplier), Option.some("Supplier"))
        assert.isTrue(Option.isNone(yield* preAdvices.supplierName(t.client2.scope, supplier)))
        assert.isTrue(Option.isNone(yield* preAdvices.supplierName(t.other.scope, supplier)))
        assert.isTrue(Option.isNone(yield* preAdvices.supplierName(t.site.scope, 999_999)))

        yield* insertSkus(t.client1.owner, ["A"])
        yield* insertSkus(t.site.owner, ["B"])
        yield* insertSkus(t.other.owner, ["C"])
        assert.deepStrictEqual(yield* preAdvices.visibleSkus(t.site.scope, ["A", "B", "C", "Z"]), new Set(["A", "B"]))
        assert.deepStrictEqual(yield* preAdvices.visibleSkus(t.client1.scope, ["A", "B"]), new Set(["A"]))
        assert.deepStrictEqual(yield* preAdvices.visibleSkus(t.client1.scope, []), new Set())
      }))
  })

  describe("ReceivingRepository", () => {
    it.effect("locks a pre-advice of the scope with its lines, and records what was received", () =>
      Effect.gen(function*() {
        const receiving = yield* ReceivingRepository
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const ref = yield* insertPreAdvice(t.client1.owner, "R-1")
        yield* preAdvices.insertLines(ref, [
          lineOf(2, "B", 5, { client_id: t.client2.owner.client_id }),
          lineOf(1, "A", 3)
        ])
        const expected = {
          ref,
          pre_advice_id: "R-1",
          client_id: t.client1.owner.client_id,
          status_id: 1 as StatusId,
          transfer: null,
          lines: [
            {
              line: 1,
              sku_id: "A",
              qty: 3,
              qty_received: 0,
              client_id: null,
              tag_id: null,
              expiry_date: null,
              qty_lost: 0
            },
            {
              line: 2,
              sku_id: "B",
              qty: 5,
              qty_received: 0,
              client_id: t.client2.owner.client_id,
              tag_id: null,
              expiry_date: null,
              qty_lost: 0
            }
          ]
        }
        assert.deepStrictEqual(yield* receiving.lockPreAdvice(t.site.scope, "R-1"), Option.some(expected))
        assert.deepStrictEqual(yield* receiving.lockPreAdvice(t.client1.scope, "R-1"), Option.some(expected))
        assert.isTrue(Option.isNone(yield* receiving.lockPreAdvice(t.client2.scope, "R-1")))
        assert.isTrue(Option.isNone(yield* receiving.lockPreAdvice(t.other.scope, "R-1")))

        yield* receiving.addReceivedLines(ref, new Map([[2, 2]]))
        yield* receiving.addReceivedLines(ref, new Map([[2, 3]]))
        yield* receiving.setStatus(ref, 3)
        const after = Option.getOrThrow(yield* receiving.lockPreAdvice(t.site.scope, "R-1"))
        assert.deepStrictEqual([after.status_id, after.lines[0].qty_received, after.lines[1].qty_received], [3, 0, 5])
      }))

    it.effect("records what was received of many lines at once, of its pre-advice only", () =>
      Effect.gen(function*() {
        const receiving = yield* ReceivingRepository
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const ref = yield* insertPreAdvice(t.site.owner, "R-1")
        const other = yield* insertPreAdvice(t.site.owner, "R-2")
        yield* preAdvices.insertLines(ref, [lineOf(1, "A", 3), lineOf(2, "B", 5), lineOf(3, "C", 2147483647)])
        yield* preAdvices.insertLines(other, [lineOf(1, "A", 3)])
        yield* receiving.addReceivedLines(ref, new Map([[2, 1]]))
        yield* receiving.addReceivedLines(ref, new Map([[3, 2147483647], [2, 4]]))
        yield* receiving.addReceivedLines(ref, new Map())
        const received = (id: string) =>
          Effect.map(
            receiving.lockPreAdvice(t.site.scope, id),
            (found) => Option.getOrThrow(found).lines.map((l) => l.qty_received)
          )
        assert.deepStrictEqual([yield* received("R-1"), yield* received("R-2")], [[0, 5, 2147483647], [0]])
      }))

    it.effect("keeps a second receiver out until the first commits; it then sees what was received", () =>
      Effect.gen(function*() {
        const receiving = yield* ReceivingRepository
        const preAdvices = yield* PreAdviceRepository
        const t = yield* makeTenants
        const ref = yield* insertPreAdvice(t.site.owner, "R-2")
        yield* preAdvices.insertLines(ref, [lineOf(1, "A", 3)])
        const seen = yield* waitsForCommit(
          Effect.zipRight(
            receiving.lockPreAdvice(t.site.scope, "R-2"),
            receiving.addReceivedLines(ref, new Map([[1, 2]]))
          ),
          receiving.lockPreAdvice(t.site.scope, "R-2")
        )
        assert.strictEqual(Option.getOrThrow(seen).lines[0].qty_received, 2)
      }))

    it.effect("gives the site's receiving location", () =>
      Effect.gen(function*() {
        const receiving = yield* ReceivingRepository
        const t = yield* makeTenants
        assert.strictEqual(yield* receiving.receivingLocation(t.site.owner.site_id), "RECEIVING")
      }))
  })
})
