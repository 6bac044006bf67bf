/**
 * The contract of `InventoryRepository` on both stores, ending with the rule the whole port serves:
 * the ledger replays to the stock.
 */
import { assert } from "@effect/vitest"
import {
  type Content,
  type ContentKey,
  InventoryRepository,
  type LedgerEntry,
  type Owner,
  PickingRepository,
  type Scope,
  Stock,
  Transactor
} from "@wms/core"
import { Effect, Option } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../../testing/properties.js"
import {
  assertDies,
  insertContent,
  insertSkus,
  makeTenants,
  onEachStore,
  type Tenants,
  waitsForCommit
} from "./Contract.js"

/** Where a ledger entry is about. */
type EntryContent = Pick<Content, "content_id" | "site_id" | "client_id" | "sku_id" | "loc_id" | "tag_id">

const entryOf = (content: EntryContent, fields: {
  readonly transaction_type: LedgerEntry["transaction_type"]
  readonly qty: number
  readonly order_id?: string | null
  readonly line_id?: number | null
  readonly notes?: string | null
  readonly from_content_id?: number | null
  readonly reason_code?: string | null
}): Omit<LedgerEntry, "id"> => ({
  site_id: content.site_id,
  client_id: content.client_id,
  created_at: "2030-01-01T10:00:00.000Z",
  content_id: content.content_id,
  from_loc_id: content.loc_id,
  to_loc_id: content.loc_id,
  final_loc_id: content.loc_id,
  sku_id: content.sku_id,
  tag_id: content.tag_id,
  order_id: null,
  line_id: null,
  notes: null,
  from_content_id: null,
  reason_code: null,
  ...fields
})

/** An operation on stock, as the services make them: a change of a content and its ledger entry. */
type StockOp =
  | { readonly _tag: "Receive"; readonly client: boolean; readonly qty: number }
  | { readonly _tag: "ReceiveMany"; readonly qtys: ReadonlyArray<number> }
  | { readonly _tag: "Adjust"; readonly content: number; readonly delta: number }
  | { readonly _tag: "Allocate"; readonly content: number; readonly delta: number }
  | { readonly _tag: "Pick"; readonly content: number; readonly qty: number }
  | { readonly _tag: "Lose"; readonly content: number; readonly qty: number }

/** What the operations below allocated of a content: allocations less deallocations and picks. */
const replayAllocation = (ledger: ReadonlyArray<LedgerEntry>, contentId: number) =>
  ledger.reduce((allocated, entry) => {
    if (entry.content_id !== contentId) return allocated
    if (entry.transaction_type === "Allocate") return allocated + entry.qty
    if (entry.transaction_type === "Deallocate" || entry.transaction_type === "Pick") return allocated - entry.qty
    return allocated
  }, 0)

const byNumber = (a: number, b: number) => a - b

const nonZero = (max: number) => fc.integer({ min: -max, max }).filter((n) => n !== 0)

const arbStockOp: fc.Arbitrary<StockOp> = fc.oneof(
  fc.record({ _tag: fc.constant("Receive" as const), client: fc.boolean(), qty: fc.integer({ min: 1, max: 50 }) }),
  fc.record({
    _tag: fc.constant("ReceiveMany" as const),
    qtys: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 })
  }),
  fc.record({ _tag: fc.constant("Adjust" as const), content: fc.nat(), delta: nonZero(30) }),
  fc.record({ _tag: fc.constant("Allocate" as const), content: fc.nat(), delta: nonZero(20) }),
  fc.record({ _tag: fc.constant("Pick" as const), content: fc.nat(), qty: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ _tag: fc.constant("Lose" as const), content: fc.nat(), qty: fc.integer({ min: 1, max: 20 }) })
)

/**
 * Plays one operation in a transaction. It decides from the stored state, locked; an allocation is
 * left to the store's own guard, whose refusal must undo the whole transaction.
 */
const playStockOp = (t: Tenants, contentIds: Array<number>, op: StockOp) =>
  Effect.gen(function*() {
    const inventory = yield* InventoryRepository
    const picking = yield* PickingRepository
    const { atomically } = yield* Transactor
    const locked = (position: number) =>
      contentIds.length === 0
        ? Effect.succeedNone
        : inventory.lockContent(t.site.scope, contentIds[position % contentIds.length])
    const receive = (owner: Owner, qty: number) =>
      Effect.gen(function*() {
        const tag_id = yield* inventory.nextTagId(owner.site_id)
        const content_id = yield* insertContent(owner, { sku_id: "A", qty, tag_id })
        contentIds.push(content_id)
        const content = { ...owner, content_id, sku_id: "A", loc_id: "A-01", tag_id }
        return entryOf(content, { transaction_type: "Receipt", qty })
      })
    const play = Effect.gen(function*() {
      switch (op._tag) {
        case "Receive": {
          const entry = yield* receive(op.client ? t.client1.owner : t.site.owner, op.qty)
          yield* inventory.appendTransaction(entry)
          return
        }
        case "ReceiveMany": {
          const entries = yield* Effect.forEach(op.qtys, (qty) => receive(t.client2.owner, qty))
          yield* inventory.appendTransactions(entries)
          return
        }
        case "Adjust": {
          const content = yield* locked(op.content)
          if (Option.isNone(content)) return
          const next = Stock.adjust(content.value, op.delta)
          if (next._tag === "Left") return
          yield* inventory.setQuantities(content.value.content_id, next.right)
          yield* inventory.appendTransaction(entryOf(content.value, { transaction_type: "Adjustment", qty: op.delta }))
          return
        }
        case "Allocate": {
          const content = yield* locked(op.content)
          if (Option.isNone(content)) return
          yield* inventory.appendTransaction(entryOf(content.value, {
            transaction_type: op.delta > 0 ? "Allocate" : "Deallocate",
            qty: Math.abs(op.delta)
          }))
          yield* inventory.changeAllocation(new Map([[content.value.content_id, op.delta]]))
          return
        }
        case "Pick": {
          const content = yield* locked(op.content)
          if (Option.isNone(content) || content.value.qty_allocated < op.qty) return
          yield* picking.takeAllocated(content.value.content_id, op.qty)
          yield* inventory.appendTransaction(entryOf(content.value, { transaction_type: "Pick", qty: op.qty }))
          return
        }
        case "Lose": {
          const content = yield* locked(op.content)
          if (Option.isNone(content) || Stock.available(content.value) < op.qty) return
          const rest = { ...content.value, qty: content.value.qty - op.qty }
          yield* inventory.setQuantities(content.value.content_id, rest)
          yield* inventory.appendTransaction(entryOf(content.value, { transaction_type: "Lost", qty: op.qty }))
          return
        }
      }
    })
    // A refused allocation dies: the entry written before it goes with the transaction.
    yield* op._tag === "Allocate" ? Effect.catchAllDefect(atomically(play), () => Effect.void) : atomically(play)
  })

onEachStore("InventoryRepository", (it) => {
  it.effect("inserts contents and lists those of a scope that hold stock, by id, with their SKU's description", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      yield* insertSkus(t.client1.owner, ["A"])
      const first = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 2147483647, expiry_date: "2030-12-31" })
      const empty = yield* insertContent(t.site.owner, { sku_id: "A", qty: 0 })
      const unknown = yield* insertContent(t.site.owner, { sku_id: "NO-SKU", qty: 1, loc_id: "B-01", tag_id: "" })
      yield* insertContent(t.other.owner, { sku_id: "A", qty: 5 })
      assert.strictEqual(typeof first, "number")

      const stored = {
        content_id: first,
        site_id: t.site.owner.site_id,
        client_id: t.client1.owner.client_id,
        sku_id: "A",
        loc_id: "A-01",
        tag_id: "T1",
        expiry_date: "2030-12-31",
        qty: 2147483647,
        qty_allocated: 0,
        qty_tasked_from: 0,
        created_at: "2030-01-01T08:00:00.000Z",
        description: "Article A",
        holds: []
      }
      const listed = yield* inventory.listContents(t.site.scope)
      assert.deepStrictEqual(listed.map((c) => c.content_id), [first, unknown])
      assert.deepStrictEqual(listed[0], stored)
      assert.deepStrictEqual([listed[1].description, listed[1].tag_id, listed[1].expiry_date], [null, "", null])
      assert.deepStrictEqual(yield* inventory.listContents(t.client1.scope), [stored])
      assert.deepStrictEqual(yield* inventory.listContents(t.client2.scope), [])

      assert.deepStrictEqual(yield* inventory.findContent(t.client1.scope, first), Option.some(stored))
      assert.isTrue(Option.isNone(yield* inventory.findContent(t.client2.scope, first)))
      assert.isTrue(Option.isNone(yield* inventory.findContent(t.other.scope, first)))
      // Found though it holds nothing.
      assert.strictEqual(Option.getOrThrow(yield* inventory.findContent(t.site.scope, empty)).qty, 0)
    }))

  it.effect("lists the contents of a scope that hold stock at one location, by id", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const later = yield* insertContent(t.client1.owner, { sku_id: "B", qty: 3, loc_id: "L-1", tag_id: "T9" })
      const earlier = yield* insertContent(t.site.owner, { sku_id: "A", qty: 1, loc_id: "L-1" })
      yield* insertContent(t.site.owner, { sku_id: "A", qty: 0, loc_id: "L-1", tag_id: "T0" })
      yield* insertContent(t.site.owner, { sku_id: "A", qty: 4, loc_id: "L-2" })
      yield* insertContent(t.other.owner, { sku_id: "A", qty: 4, loc_id: "L-1" })
      const at = (scope: Scope) =>
        Effect.map(inventory.listContentsAt(scope, "L-1"), (cs) => cs.map((c) => c.content_id))
      assert.deepStrictEqual(yield* at(t.site.scope), [later, earlier].sort((a, b) => a - b))
      assert.deepStrictEqual(yield* at(t.client1.scope), [later])
      assert.deepStrictEqual(yield* at(t.client2.scope), [])
      const [row] = yield* inventory.listContentsAt(t.client1.scope, "L-1")
      assert.deepStrictEqual([row.sku_id, row.tag_id, row.qty, row.loc_id], ["B", "T9", 3, "L-1"])
    }))

  it.effect("locks a content of the scope, and the oldest content of an owner at a key", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const key: ContentKey = { sku_id: "A", loc_id: "A-01", tag_id: null, expiry_date: null }
      const older = yield* insertContent(t.site.owner, { sku_id: "A", qty: 1, tag_id: "T2" })
      const newer = yield* insertContent(t.site.owner, { sku_id: "A", qty: 1, tag_id: "T1" })
      const dated = yield* insertContent(t.site.owner, { sku_id: "A", qty: 1, expiry_date: "2030-06-01" })
      const ofClient = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 1 })

      const locked = Option.getOrThrow(yield* inventory.lockContent(t.site.scope, older))
      assert.deepStrictEqual([locked.content_id, locked.tag_id, locked.qty], [older, "T2", 1])
      assert.isTrue(Option.isNone(yield* inventory.lockContent(t.client1.scope, older)))
      assert.isTrue(Option.isSome(yield* inventory.lockContent(t.client1.scope, ofClient)))

      const at = (owner: Owner, k: ContentKey) =>
        Effect.map(inventory.lockContentAt(owner, k), Option.map((c) => c.content_id))
      // Any tag: the oldest; a tag: its own; the site's own stock is not a client's, nor the other way round.
      assert.deepStrictEqual(yield* at(t.site.owner, key), Option.some(older))
      assert.deepStrictEqual(yield* at(t.site.owner, { ...key, tag_id: "T1" }), Option.some(newer))
      assert.deepStrictEqual(yield* at(t.site.owner, { ...key, expiry_date: "2030-06-01" }), Option.some(dated))
      assert.deepStrictEqual(yield* at(t.client1.owner, key), Option.some(ofClient))
      assert.isTrue(Option.isNone(yield* at(t.client2.owner, key)))
      assert.isTrue(Option.isNone(yield* at(t.site.owner, { ...key, loc_id: "B-01" })))
      assert.isTrue(Option.isNone(yield* at(t.site.owner, { ...key, expiry_date: "2030-06-02" })))
    }))

  it.effect("lockContent and lockContentAt keep a second writer out until the first commits", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const id = yield* insertContent(t.site.owner, { sku_id: "A", qty: 10 })
      const add = (n: number) => (content: Option.Option<Content>) =>
        inventory.setQuantities(id, { ...Option.getOrThrow(content), qty: Option.getOrThrow(content).qty + n })
      const key = { sku_id: "A", loc_id: "A-01", tag_id: "T1", expiry_date: null }
      yield* waitsForCommit(
        Effect.flatMap(inventory.lockContent(t.site.scope, id), add(1)),
        Effect.flatMap(inventory.lockContent(t.site.scope, id), add(2))
      )
      yield* waitsForCommit(
        Effect.flatMap(inventory.lockContentAt(t.site.owner, key), add(3)),
        Effect.flatMap(inventory.lockContentAt(t.site.owner, key), add(4))
      )
      // No change was lost.
      assert.strictEqual(Option.getOrThrow(yield* inventory.findContent(t.site.scope, id)).qty, 20)
    }))

  it.effect("sets a content's quantities, and changes allocations all together or dies", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const { atomically } = yield* Transactor
      const t = yield* makeTenants
      const a = yield* insertContent(t.site.owner, { sku_id: "A", qty: 10 })
      const b = yield* insertContent(t.site.owner, { sku_id: "A", qty: 10 })
      const quantities = (id: number) =>
        Effect.map(inventory.findContent(t.site.scope, id), (c) => {
          const { qty, qty_allocated, qty_tasked_from } = Option.getOrThrow(c)
          return [qty, qty_allocated, qty_tasked_from]
        })
      yield* inventory.setQuantities(a, { qty: 12, qty_allocated: 2, qty_tasked_from: 3 })
      assert.deepStrictEqual(yield* quantities(a), [12, 2, 3])

      yield* inventory.changeAllocation(new Map([[a, 5], [b, 10]]))
      assert.deepStrictEqual([yield* quantities(a), yield* quantities(b)], [[12, 7, 3], [10, 10, 0]])
      yield* inventory.changeAllocation(new Map([[a, -7], [b, 0]]))
      yield* inventory.changeAllocation(new Map())
      assert.deepStrictEqual([yield* quantities(a), yield* quantities(b)], [[12, 0, 3], [10, 10, 0]])

      // Past the stock rule on one content, either way: nothing changes.
      yield* assertDies(atomically(inventory.changeAllocation(new Map([[a, 1], [b, 1]]))))
      yield* assertDies(atomically(inventory.changeAllocation(new Map([[a, -1], [b, -1]]))))
      yield* assertDies(atomically(inventory.changeAllocation(new Map([[999_999, 1]]))))
      assert.deepStrictEqual([yield* quantities(a), yield* quantities(b)], [[12, 0, 3], [10, 10, 0]])
    }))

  it.effect("counts tag ids per site, never giving one twice", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const { atomically } = yield* Transactor
      const t = yield* makeTenants
      assert.strictEqual(yield* inventory.nextTagId(t.site.owner.site_id), "T00000001")
      assert.strictEqual(yield* inventory.nextTagId(t.other.owner.site_id), "T00000001")
      const tags = yield* Effect.all(
        Array.from({ length: 10 }, () => atomically(inventory.nextTagId(t.site.owner.site_id))),
        { concurrency: "unbounded" }
      )
      const expected = Array.from({ length: 10 }, (_, i) => `T${String(i + 2).padStart(8, "0")}`)
      assert.deepStrictEqual([...tags].sort(), expected)
    }))

  it.effect("inserts many contents at once, their ids in their order, and sets the quantities of many at once", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const newContent = (i: number): Omit<Content, "content_id"> => ({
        site_id: t.site.owner.site_id,
        client_id: i % 2 === 0 ? null : t.client1.owner.client_id,
        sku_id: "A",
        loc_id: "A-01",
        tag_id: `M${i}`,
        expiry_date: i === 0 ? "2030-12-31" : null,
        qty: i + 1,
        qty_allocated: 0,
        qty_tasked_from: 0,
        created_at: "2030-01-01T08:00:00.000Z"
      })
      // More rows than one statement takes: the ids follow the order given across the statements.
      const fresh = Array.from({ length: 1_700 }, (_, i) => newContent(i))
      const ids = yield* inventory.insertContents(fresh)
      assert.deepStrictEqual(yield* inventory.insertContents([]), [])
      const stored = yield* inventory.listContents(t.site.scope)
      assert.deepStrictEqual(stored.map((c) => c.content_id), ids)
      assert.deepStrictEqual(
        stored.map(({ description: _, holds: __, ...content }) => content),
        fresh.map((content, i) => ({ ...content, content_id: ids[i] }))
      )

      const quantities = (id: number) =>
        Effect.map(inventory.findContent(t.site.scope, id), (c) => {
          const { qty, qty_allocated, qty_tasked_from } = Option.getOrThrow(c)
          return [qty, qty_allocated, qty_tasked_from]
        })
      yield* inventory.setQuantitiesOf(
        new Map([
          [ids[1_699], { qty: 2147483647, qty_allocated: 1, qty_tasked_from: 2147483646 }],
          [ids[0], { qty: 9, qty_allocated: 2, qty_tasked_from: 3 }]
        ])
      )
      yield* inventory.setQuantitiesOf(new Map())
      yield* inventory.setQuantitiesOf(new Map([[ids[2], { qty: 8, qty_allocated: 1, qty_tasked_from: 7 }]]))
      assert.deepStrictEqual(
        [
          yield* quantities(ids[0]),
          yield* quantities(ids[1]),
          yield* quantities(ids[2]),
          yield* quantities(ids[1_699])
        ],
        [[9, 2, 3], [2, 0, 0], [8, 1, 7], [2147483647, 1, 2147483646]]
      )
    }))

  it.effect("takes many tag ids at once, on the counter nextTagId counts, never giving one twice", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const { atomically } = yield* Transactor
      const t = yield* makeTenants
      const tag = (n: number) => `T${String(n).padStart(8, "0")}`
      const siteId = t.site.owner.site_id
      assert.deepStrictEqual(yield* inventory.nextTagIds(siteId, 3), [tag(1), tag(2), tag(3)])
      assert.strictEqual(yield* inventory.nextTagId(siteId), tag(4))
      assert.deepStrictEqual(yield* inventory.nextTagIds(siteId, 0), [])
      assert.deepStrictEqual(yield* inventory.nextTagIds(t.other.owner.site_id, 1), [tag(1)])
      const taken = yield* Effect.all(
        Array.from({ length: 5 }, () => atomically(inventory.nextTagIds(siteId, 2))),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(taken.flat().sort(), Array.from({ length: 10 }, (_, i) => tag(i + 5)))
    }))

  it.effect("appends transactions to the ledger, one or many in their order, and finds those a scope sees", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      const ofClient = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 5 })
      const ofSite = yield* insertContent(t.site.owner, { sku_id: "B", qty: 5 })
      const clientContent = { content_id: ofClient, ...t.client1.owner, sku_id: "A", loc_id: "A-01", tag_id: "T1" }
      const siteContent = { content_id: ofSite, ...t.site.owner, sku_id: "B", loc_id: "A-01", tag_id: "T1" }
      const receipt = entryOf(clientContent, { transaction_type: "Receipt", qty: 5, notes: "", reason_code: "" })
      const id = yield* inventory.appendTransaction(receipt)
      assert.strictEqual(typeof id, "number")
      const many = [
        entryOf(siteContent, { transaction_type: "Receipt", qty: 5 }),
        entryOf(clientContent, { transaction_type: "Allocate", qty: 2147483647, order_id: "O-1", line_id: 2147483647 }),
        entryOf(siteContent, { transaction_type: "Adjustment", qty: -3, notes: "counted", reason_code: "DAMAGED" }),
        entryOf(siteContent, { transaction_type: "Move", qty: 2, from_content_id: ofClient, notes: "Movement task 7" })
      ]
      yield* inventory.appendTransactions(many)
      yield* inventory.appendTransactions([])

      const ledger = yield* inventory.listTransactions(t.site.scope)
      assert.deepStrictEqual(ledger.map(({ id: _, ...entry }) => entry), [receipt, ...many])
      assert.strictEqual(ledger[0].id, id)
      assert.isTrue(ledger.every((entry, i) => i === 0 || entry.id > ledger[i - 1].id))
      // The movement's source and the correction's reason come back with their own types.
      assert.strictEqual(ledger[4].from_content_id, ofClient)
      assert.strictEqual(ledger[3].reason_code, "DAMAGED")
      assert.deepStrictEqual(yield* inventory.findTransaction(t.site.scope, ledger[4].id), Option.some(ledger[4]))
      assert.deepStrictEqual(yield* inventory.listTransactions(t.client1.scope), [ledger[0], ledger[2]])
      assert.deepStrictEqual(yield* inventory.listTransactions(t.client2.scope), [])
      assert.deepStrictEqual(yield* inventory.findTransaction(t.client1.scope, ledger[2].id), Option.some(ledger[2]))
      assert.isTrue(Option.isNone(yield* inventory.findTransaction(t.client1.scope, ledger[1].id)))
      assert.isTrue(Option.isNone(yield* inventory.findTransaction(t.other.scope, id)))
    }))

  it.effect("inserts lost-and-found items and lists and finds those a scope sees, with their SKU's description", () =>
    Effect.gen(function*() {
      const inventory = yield* InventoryRepository
      const t = yield* makeTenants
      yield* insertSkus(t.client1.owner, ["A"])
      const content = yield* insertContent(t.client1.owner, { sku_id: "A", qty: 5 })
      const item = {
        ...t.client1.owner,
        content_id: content,
        sku_id: "A",
        loc_id: "A-01",
        tag_id: "T1",
        qty: 2,
        created_at: "2030-01-01T11:00:00.000Z",
        created_by: "tester",
        notes: null
      }
      const id = yield* inventory.insertLostAndFound(item)
      const unknown = yield* inventory.insertLostAndFound({ ...item, ...t.site.owner, sku_id: "NO-SKU", notes: "" })
      assert.strictEqual(typeof id, "number")
      const stored = { id, ...item, description: "Article A" }
      assert.deepStrictEqual(yield* inventory.listLostAndFound(t.site.scope), [
        stored,
        { ...stored, id: unknown, ...t.site.owner, sku_id: "NO-SKU", notes: "", description: null }
      ])
      assert.deepStrictEqual(yield* inventory.listLostAndFound(t.client1.scope), [stored])
      assert.deepStrictEqual(yield* inventory.findLostAndFound(t.client1.scope, id), Option.some(stored))
      assert.isTrue(Option.isNone(yield* inventory.findLostAndFound(t.client1.scope, unknown)))
      assert.isTrue(Option.isNone(yield* inventory.findLostAndFound(t.other.scope, id)))
    }))

  it.effect.prop(
    "the ledger replays to the stock, in every scope, through any sequence of stock changes",
    [fc.array(arbStockOp, { minLength: 1, maxLength: 20 })],
    ([ops]) =>
      Effect.gen(function*() {
        const inventory = yield* InventoryRepository
        const t = yield* makeTenants
        const contentIds: Array<number> = []
        for (const op of ops) yield* playStockOp(t, contentIds, op)
        for (const tenant of [t.site, t.client1, t.client2]) {
          const ledger = yield* inventory.listTransactions(tenant.scope)
          const replayed = Stock.replayQuantities(ledger)
          const contents = yield* Effect.forEach(contentIds, (id) => inventory.findContent(tenant.scope, id))
          const seen = contents.flatMap((c) => Option.isSome(c) ? [c.value] : [])
          for (const content of seen) {
            assert.isTrue(Stock.isValid(content), `content ${content.content_id} breaks the stock rule`)
            assert.strictEqual(replayed.get(content.content_id), content.qty, `content ${content.content_id}`)
            // So does the allocation: a refused change left no entry behind.
            assert.strictEqual(replayAllocation(ledger, content.content_id), content.qty_allocated)
          }
          // The scope's ledger names only contents it sees.
          assert.deepStrictEqual([...replayed.keys()].sort(byNumber), seen.map((c) => c.content_id).sort(byNumber))
          assert.deepStrictEqual(
            (yield* inventory.listContents(tenant.scope)).map((c) => c.content_id),
            seen.filter((c) => c.qty > 0).map((c) => c.content_id).sort(byNumber)
          )
        }
      }),
    { fastCheck: { numRuns: propertyRuns(15) } }
  )
})
