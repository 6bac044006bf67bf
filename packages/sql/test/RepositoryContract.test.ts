import { SqlClient } from "@effect/sql"
import { assert, describe, it, layer } from "@effect/vitest"
import {
  Client,
  ClientId,
  IdempotencyRepository,
  OrderRepository,
  type Scope,
  SettingRepository,
  Site,
  SiteId,
  SiteRepository,
  Transactor,
  User,
  UserId,
  UserRepository
} from "@wms/core"
import { PgStore } from "@wms/sql-pg"
import { SqliteStore } from "@wms/sql-sqlite"
import { Effect, Layer, Option } from "effect"
import { onBothStores } from "../../../testing/databases.js"

const stores = onBothStores((db) => db.kind === "sqlite" ? SqliteStore.layer(db) : PgStore.layer(db))

const site = (id: string, fulfillment = false) =>
  new Site({ site_id: SiteId.make(id), name: `Site ${id}`, fulfillment })

const scopeOf = (siteId: string, clientId: string | null): Scope => ({
  site_id: SiteId.make(siteId),
  fulfillment: true,
  client_id: clientId === null ? null : ClientId.make(clientId)
})

for (const [label, store] of stores) {
  layer(store, { timeout: 60_000 })(`repository contract on ${label}`, (it) => {
    it.effect("inserts and finds sites, refusing a taken id", () =>
      Effect.gen(function*() {
        const repo = yield* SiteRepository
        assert.isTrue(yield* repo.insertSite(site("s1")))
        assert.isFalse(yield* repo.insertSite(site("s1")))
        const found = yield* repo.findSite(SiteId.make("s1"))
        assert.deepStrictEqual(Option.getOrThrow(found), site("s1"))
        assert.isTrue(Option.isNone(yield* repo.findSite(SiteId.make("nope"))))
      }))

    it.effect("keeps site and client ids in one namespace", () =>
      Effect.gen(function*() {
        const repo = yield* SiteRepository
        yield* repo.insertSite(site("f1", true))
        const client = new Client({ client_id: ClientId.make("c1"), site_id: SiteId.make("f1"), name: "Client 1" })
        assert.isTrue(yield* repo.insertClient(client))
        assert.isFalse(yield* repo.insertClient(client))
        assert.isFalse(yield* repo.insertSite(site("c1")))
        assert.isFalse(yield* repo.insertClient(new Client({ ...client, client_id: ClientId.make("f1") })))
        const target = Option.getOrThrow(yield* repo.findTarget("c1"))
        assert.strictEqual(target._tag, "Client")
        assert.strictEqual(target.site.site_id, "f1")
        assert.isTrue(target.site.fulfillment)
        assert.strictEqual(Option.getOrThrow(yield* repo.findTarget("f1"))._tag, "Site")
        assert.isTrue(Option.isNone(yield* repo.findTarget("nobody")))
        assert.isTrue(yield* repo.clientOfSite(SiteId.make("f1"), ClientId.make("c1")))
        assert.isFalse(yield* repo.clientOfSite(SiteId.make("s1"), ClientId.make("c1")))
        assert.deepStrictEqual(yield* repo.listClients(SiteId.make("f1")), [client])
      }))

    it.effect("stores users with unique e-mail addresses, and updates, counts and removes them", () =>
      Effect.gen(function*() {
        const repo = yield* UserRepository
        const user = new User({
          userId: UserId.make("u1"),
          email: "a@example.com",
          name: "A",
          admin: false,
          site: SiteId.make("s1"),
          client: null,
          active: true
        })
        const stored = { user, passwordHash: "hash", tokenVersion: 0 }
        assert.isTrue(yield* repo.insert(stored))
        assert.isFalse(yield* repo.insert({ ...stored, user: new User({ ...user, userId: UserId.make("u2") }) }))
        assert.deepStrictEqual(Option.getOrThrow(yield* repo.findByEmail("a@example.com")), stored)
        assert.strictEqual(yield* repo.count, 1)
        assert.deepStrictEqual(yield* repo.list(SiteId.make("s1")), [user])
        assert.deepStrictEqual(yield* repo.list(SiteId.make("f1")), [])

        const admin = new User({ ...user, userId: UserId.make("u3"), email: "b@example.com", admin: true })
        assert.isTrue(yield* repo.insert({ user: admin, passwordHash: "h", tokenVersion: 0 }))
        assert.strictEqual(yield* repo.activeAdmins, 1)
        const changed = { user: new User({ ...admin, active: false, name: "B" }), passwordHash: "h2", tokenVersion: 1 }
        assert.isTrue(yield* repo.update(changed))
        assert.deepStrictEqual(Option.getOrThrow(yield* repo.findById(admin.userId)), changed)
        assert.strictEqual(yield* repo.activeAdmins, 0)
        assert.isFalse(yield* repo.update({ ...changed, user: new User({ ...changed.user, email: "a@example.com" }) }))
        yield* repo.remove(admin.userId)
        assert.isTrue(Option.isNone(yield* repo.findById(admin.userId)))
      }))

    it.effect("writes and reads orders by scope, with the values' own types and taken lines left out", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const orders = yield* OrderRepository
        const sql = yield* SqlClient.SqlClient
        yield* sites.insertSite(site("os", true))
        for (const id of ["oc1", "oc2"]) {
          yield* sites.insertClient(new Client({ client_id: ClientId.make(id), site_id: SiteId.make("os"), name: id }))
        }
        const [customer] = yield* sql<{ id: number }>`INSERT INTO customers (site_id, client_id, name, town)
          VALUES ('os', 'oc1', 'Customer', 'Town') RETURNING id`
        const [carrier] = yield* sql<{ id: number }>`INSERT INTO carriers (site_id, name)
          VALUES ('os', 'Carrier') RETURNING id`
        for (const [sku, client] of [["A", "oc1"], ["B", "oc1"], ["C", "oc2"]]) {
          yield* sql`INSERT INTO skus (site_id, sku_id, client_id, description, expiry_sku, obsolete, new, pick_method)
            VALUES ('os', ${sku}, ${client}, ${sku}, 0, 0, 0, 1)`
        }
        const [site_, client1, client2] = [scopeOf("os", null), scopeOf("os", "oc1"), scopeOf("os", "oc2")]

        const order = {
          owner: { site_id: SiteId.make("os"), client_id: ClientId.make("oc1") },
          order_id: "O-1",
          status_id: 10,
          created_at: "2030-01-01T00:00:00.000Z",
          created_by: "u1",
          customer_id: customer.id,
          order_date: "2030-01-02",
          ship_by_date: null,
          carrier_id: carrier.id,
          ship_dock: null
        }
        const ref = Option.getOrThrow(yield* orders.insert(order))
        assert.strictEqual(typeof ref, "number")
        assert.isTrue(Option.isNone(yield* orders.insert(order)))
        assert.deepStrictEqual(yield* orders.insertLines(ref, []), [])
        assert.deepStrictEqual(
          yield* orders.insertLines(ref, [{ line: 1, sku_id: "A", qty: 3 }, { line: 2, sku_id: "B", qty: 1 }]),
          []
        )
        assert.deepStrictEqual(
          yield* orders.insertLines(ref, [{ line: 3, sku_id: "A", qty: 5 }, { line: 2, sku_id: "A", qty: 7 }]),
          [2]
        )

        const header = {
          ref,
          order_id: "O-1",
          client_id: "oc1",
          order_date: "2030-01-02",
          status_id: 10,
          customer_id: customer.id,
          customer_name: "Customer",
          customer_town: "Town",
          ship_by_date: null,
          carrier_name: "Carrier",
          ship_dock: null,
          created_at: "2030-01-01T00:00:00.000Z",
          created_by: "u1"
        }
        const stored = {
          header,
          lines: [
            { line: 1, sku_id: "A", qty: 3, qty_picked: 0, qty_shipped: 0 },
            { line: 2, sku_id: "B", qty: 1, qty_picked: 0, qty_shipped: 0 },
            { line: 3, sku_id: "A", qty: 5, qty_picked: 0, qty_shipped: 0 }
          ]
        }
        assert.deepStrictEqual(Option.getOrThrow(yield* orders.find(site_, "O-1")), stored)
        assert.deepStrictEqual(Option.getOrThrow(yield* orders.find(client1, "O-1")), stored)
        assert.isTrue(Option.isNone(yield* orders.find(client2, "O-1")))
        assert.isTrue(Option.isNone(yield* orders.find(site_, "O-2")))
        assert.deepStrictEqual(yield* orders.list(site_, true), [stored])
        assert.deepStrictEqual(yield* orders.list(client1, false), [{ header, lines: [] }])
        assert.deepStrictEqual(yield* orders.list(client2, true), [])

        assert.deepStrictEqual(yield* orders.visibleSkus(site_, ["A", "C", "Z"]), new Set(["A", "C"]))
        assert.deepStrictEqual(yield* orders.visibleSkus(client1, ["A", "B", "C"]), new Set(["A", "B"]))
        assert.deepStrictEqual(yield* orders.visibleSkus(client1, []), new Set())
        assert.isTrue(yield* orders.customerVisible(site_, customer.id))
        assert.isTrue(yield* orders.customerVisible(client1, customer.id))
        assert.isFalse(yield* orders.customerVisible(client2, customer.id))
        assert.isTrue(yield* orders.carrierVisible(client2, carrier.id))
        assert.isFalse(yield* orders.carrierVisible(scopeOf("s1", null), carrier.id))
      }))

    it.effect("keeps the first value of a setting", () =>
      Effect.gen(function*() {
        const repo = yield* SettingRepository
        assert.strictEqual(yield* repo.getOrInsert("key", () => "first"), "first")
        assert.strictEqual(yield* repo.getOrInsert("key", () => "second"), "first")
      }))

    it.effect("keeps a key's request and answer per caller, taken anew once expired, forgotten when old", () =>
      Effect.gen(function*() {
        const repo = yield* IdempotencyRepository
        const { atomically } = yield* Transactor
        const [alice, bob] = [UserId.make("alice"), UserId.make("bob")]
        const at = (hour: number) => `2030-01-01T${String(hour).padStart(2, "0")}:00:00.000Z`
        const claim = (userId: UserId, requestHash: string, hour: number) =>
          repo.claim({ userId, key: "k-1", requestHash, claimedAt: at(hour) }, at(hour - 1))
        const answer = {
          status: 201,
          headers: { "content-type": "application/json", location: "/x/1" },
          body: "{\"id\":1}"
        }
        yield* atomically(Effect.gen(function*() {
          assert.isTrue(Option.isNone(yield* claim(alice, "h1", 10)))
          yield* repo.keep(alice, "k-1", answer)
        }))
        assert.deepStrictEqual(yield* atomically(claim(alice, "h2", 10)), Option.some({ requestHash: "h1", answer }))
        assert.isTrue(Option.isNone(yield* atomically(claim(bob, "h1", 10))))
        yield* atomically(repo.keep(bob, "k-1", { status: 204, headers: {}, body: null }))
        // Used at 10:00, the key has expired for a claim that counts from after 10:00.
        assert.isTrue(Option.isNone(yield* atomically(claim(alice, "h3", 12))))
        yield* atomically(repo.keep(alice, "k-1", answer))
        yield* atomically(repo.forgetBefore(at(11)))
        assert.isTrue(Option.isNone(yield* atomically(claim(bob, "h1", 10))))
        const kept = yield* atomically(claim(alice, "h4", 12))
        assert.strictEqual(Option.getOrThrow(kept).requestHash, "h3")
      }))

    it.effect("rolls a failed transaction back whole", () =>
      Effect.gen(function*() {
        const repo = yield* SiteRepository
        const { atomically } = yield* Transactor
        const result = yield* atomically(Effect.gen(function*() {
          yield* repo.insertSite(site("rollback"))
          return yield* Effect.fail("boom" as const)
        })).pipe(Effect.flip)
        assert.strictEqual(result, "boom")
        assert.isTrue(Option.isNone(yield* repo.findSite(SiteId.make("rollback"))))
      }))
  })
}

describe("two stores in one process", () => {
  it.scoped("never share a repository, even when built with one memo map", () =>
    Effect.gen(function*() {
      const memoMap = yield* Layer.makeMemoMap
      const scope = yield* Effect.scope
      const build = (store: Layer.Layer<SiteRepository | Transactor>) => Layer.buildWithMemoMap(store, memoMap, scope)
      const contexts = [yield* build(stores[0][1]), yield* build(stores[1][1])]
      for (const context of contexts) {
        const inserted = yield* Effect.flatMap(SiteRepository, (repo) =>
          Transactor.pipe(Effect.flatMap(({ atomically }) => atomically(repo.insertSite(site("shared")))))).pipe(
            Effect.provide(context)
          )
        assert.isTrue(inserted)
      }
    }))
})
