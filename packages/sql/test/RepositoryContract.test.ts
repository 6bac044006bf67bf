import { assert, describe, it, layer } from "@effect/vitest"
import {
  Client,
  ClientId,
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

const site = (id: string, fulfillment = false) => new Site({ site_id: SiteId.make(id), name: `Site ${id}`, fulfillment })

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

    it.effect("keeps the first value of a setting", () =>
      Effect.gen(function*() {
        const repo = yield* SettingRepository
        assert.strictEqual(yield* repo.getOrInsert("key", () => "first"), "first")
        assert.strictEqual(yield* repo.getOrInsert("key", () => "second"), "first")
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
