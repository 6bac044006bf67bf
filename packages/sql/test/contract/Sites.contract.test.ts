/**
 * The contract of the tenants' ports on both stores: `SiteRepository`, `UserRepository` and
 * `SettingRepository`.
 */
import { assert, describe } from "@effect/vitest"
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
  UserRepository,
  type UserWithCredentials
} from "@wms/core"
import { Effect, Option } from "effect"
import { byCodeUnits, fresh, makeTenants, onEachStore, waitsForCommit } from "./Contract.js"

const site = (id: string, fulfillment = false) =>
  new Site({ site_id: SiteId.make(id), name: `Site ${id}`, fulfillment })

const userOf = (fields: { readonly email: string; readonly site: SiteId } & Partial<User>): UserWithCredentials => ({
  user: new User({
    userId: UserId.make(fresh("u")),
    name: "A user",
    admin: false,
    client: null,
    active: true,
    ...fields
  }),
  passwordHash: "hash",
  tokenVersion: 0
})

onEachStore("tenants", (it) => {
  describe("SiteRepository", () => {
    it.effect("inserts and finds a site with its flag as a boolean, refusing a taken id", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const [plain, fulfillment] = [site(fresh("s")), site(fresh("s"), true)]
        assert.isTrue(yield* sites.insertSite(plain))
        assert.isTrue(yield* sites.insertSite(fulfillment))
        assert.isFalse(yield* sites.insertSite(site(plain.site_id, true)))
        assert.deepStrictEqual(yield* sites.findSite(plain.site_id), Option.some(plain))
        assert.deepStrictEqual(yield* sites.findSite(fulfillment.site_id), Option.some(fulfillment))
        assert.isTrue(Option.isNone(yield* sites.findSite(SiteId.make(fresh("nowhere")))))
      }))

    it.effect("keeps site and client ids in one namespace", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const [f, other] = [site(fresh("f"), true), site(fresh("s"))]
        yield* sites.insertSite(f)
        yield* sites.insertSite(other)
        const client = new Client({ client_id: ClientId.make(fresh("c")), site_id: f.site_id, name: "Client" })
        assert.isTrue(yield* sites.insertClient(client))
        assert.isFalse(yield* sites.insertClient(client))
        assert.isFalse(yield* sites.insertSite(site(client.client_id)))
        assert.isFalse(yield* sites.insertClient(new Client({ ...client, client_id: ClientId.make(f.site_id) })))
        // A refused client leaves no trace.
        assert.deepStrictEqual(yield* sites.listClients(f.site_id), [client])
        assert.isTrue(Option.isNone(yield* sites.findSite(SiteId.make(client.client_id))))
      }))

    it.effect("finds the target a `site` header names: a site, or a client with its site", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const t = yield* makeTenants
        const clientId = t.client1.owner.client_id!
        const ofClient = Option.getOrThrow(yield* sites.findTarget(clientId))
        assert.strictEqual(ofClient._tag, "Client")
        assert.deepStrictEqual(ofClient.site, Option.getOrThrow(yield* sites.findSite(t.site.owner.site_id)))
        assert.deepStrictEqual(
          ofClient._tag === "Client" ? ofClient.client : undefined,
          new Client({ client_id: clientId, site_id: t.site.owner.site_id, name: clientId })
        )
        const ofSite = Option.getOrThrow(yield* sites.findTarget(t.other.owner.site_id))
        const plain = new Site({ site_id: t.other.owner.site_id, name: "Plain", fulfillment: false })
        assert.deepStrictEqual(ofSite, { _tag: "Site", site: plain })
        // Asked twice: the second answer (from the store's cache) is the same.
        assert.deepStrictEqual(yield* sites.findTarget(t.other.owner.site_id), Option.some(ofSite))
        assert.isTrue(Option.isNone(yield* sites.findTarget(fresh("nobody"))))
      }))

    it.effect("finds no target that a rolled-back transaction wrote, even after looking it up there", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const { atomically } = yield* Transactor
        const id = fresh("gone")
        const seenInside = yield* atomically(Effect.gen(function*() {
          yield* sites.insertSite(site(id))
          const target = yield* sites.findTarget(id)
          return yield* Effect.fail(target)
        })).pipe(Effect.flip)
        assert.isTrue(Option.isSome(seenInside))
        assert.isTrue(Option.isNone(yield* sites.findTarget(id)))
        // The id is free again.
        assert.isTrue(yield* sites.insertSite(site(id)))
      }))

    it.effect("says whether a client belongs to a site", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const t = yield* makeTenants
        assert.isTrue(yield* sites.clientOfSite(t.site.owner.site_id, t.client2.owner.client_id!))
        assert.isFalse(yield* sites.clientOfSite(t.other.owner.site_id, t.client2.owner.client_id!))
        assert.isFalse(yield* sites.clientOfSite(t.site.owner.site_id, ClientId.make(t.other.owner.site_id)))
      }))

    it.effect("lists sites and a site's clients by their ids' bytes, whatever the database's collation", () =>
      Effect.gen(function*() {
        const sites = yield* SiteRepository
        const tag = fresh("order")
        const siteIds = [`b-${tag}`, `B-${tag}`, `a-${tag}`, `_-${tag}`, `A-${tag}`]
        for (const id of siteIds) yield* sites.insertSite(site(id, true))
        const listed = (yield* sites.listSites).map((s) => s.site_id).filter((id) => id.endsWith(`-${tag}`))
        assert.deepStrictEqual(listed, byCodeUnits(siteIds))

        const clientIds = siteIds.map((id) => `c${id}`)
        for (const id of clientIds) {
          const client = new Client({ client_id: ClientId.make(id), site_id: SiteId.make(siteIds[0]), name: id })
          yield* sites.insertClient(client)
        }
        const clients = yield* sites.listClients(SiteId.make(siteIds[0]))
        assert.deepStrictEqual(clients.map((c) => c.client_id), byCodeUnits(clientIds))
        assert.deepStrictEqual(yield* sites.listClients(SiteId.make(siteIds[1])), [])
      }))
  })

  describe("UserRepository", () => {
    it.effect("stores users with unique e-mail addresses, with every field's own type", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const t = yield* makeTenants
        const email = `${fresh("a")}@example.com`
        const stored = {
          ...userOf({ email, site: t.site.owner.site_id, client: t.client1.owner.client_id }),
          tokenVersion: 7
        }
        assert.isTrue(yield* users.insert(stored))
        assert.isFalse(yield* users.insert(userOf({ email, site: t.other.owner.site_id })))
        assert.deepStrictEqual(yield* users.findByEmail(email), Option.some(stored))
        assert.deepStrictEqual(yield* users.findById(stored.user.userId), Option.some(stored))
        // Addresses are matched as they are: normalizing them is the core's.
        assert.isTrue(Option.isNone(yield* users.findByEmail(email.toUpperCase())))
        assert.isTrue(yield* users.insert(userOf({ email: email.toUpperCase(), site: t.site.owner.site_id })))
        assert.isTrue(Option.isNone(yield* users.findById(UserId.make(fresh("nobody")))))
      }))

    it.effect("counts, updates every field of, and removes users", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const t = yield* makeTenants
        const before = yield* users.count
        const first = userOf({ email: `${fresh("a")}@example.com`, site: t.site.owner.site_id })
        const second = userOf({ email: `${fresh("b")}@example.com`, site: t.site.owner.site_id })
        yield* users.insert(first)
        yield* users.insert(second)
        assert.strictEqual(yield* users.count, before + 2)

        const changed: UserWithCredentials = {
          user: new User({
            ...first.user,
            email: `${fresh("c")}@example.com`,
            name: "Changed",
            admin: true,
            site: t.other.owner.site_id,
            client: null,
            active: false
          }),
          passwordHash: "new hash",
          tokenVersion: 2147483647
        }
        assert.isTrue(yield* users.update(changed))
        assert.deepStrictEqual(yield* users.findById(first.user.userId), Option.some(changed))
        assert.isTrue(Option.isNone(yield* users.findByEmail(first.user.email)))
        // Another user's address is taken: nothing changes.
        const clash = new User({ ...changed.user, email: second.user.email })
        assert.isFalse(yield* users.update({ ...changed, user: clash }))
        assert.deepStrictEqual(yield* users.findById(first.user.userId), Option.some(changed))
        // Its own address is not.
        assert.isTrue(yield* users.update(changed))

        yield* users.remove(first.user.userId)
        assert.isTrue(Option.isNone(yield* users.findById(first.user.userId)))
        assert.strictEqual(yield* users.count, before + 1)
      }))

    it.effect("lists the users of a site, or of all sites, by their addresses' bytes", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const t = yield* makeTenants
        const tag = fresh("order")
        const emails = [`b${tag}@x`, `B${tag}@x`, `a${tag}@x`, `_${tag}@x`, `A${tag}@x`]
        for (const [i, email] of emails.entries()) {
          yield* users.insert(userOf({ email, site: i % 2 === 0 ? t.site.owner.site_id : t.other.owner.site_id }))
        }
        const ofSite = (yield* users.list(t.site.owner.site_id)).map((user) => user.email)
        assert.deepStrictEqual(ofSite, byCodeUnits(emails.filter((_, i) => i % 2 === 0)))
        const ofAll = (yield* users.list(undefined)).map((user) => user.email).filter((email) => email.includes(tag))
        assert.deepStrictEqual(ofAll, byCodeUnits(emails))
        assert.deepStrictEqual(yield* users.list(SiteId.make(t.client1.owner.client_id!)), [])
      }))

    it.effect("counts active admins, their rows locked: a second count waits and sees the first's change", () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const t = yield* makeTenants
        const admin = userOf({ email: `${fresh("admin")}@example.com`, site: t.site.owner.site_id, admin: true })
        const before = yield* users.activeAdmins
        yield* users.insert(admin)
        const email = (label: string) => `${fresh(label)}@example.com`
        yield* users.insert(userOf({ email: email("off"), site: t.site.owner.site_id, admin: true, active: false }))
        yield* users.insert(userOf({ email: `${fresh("plain")}@example.com`, site: t.site.owner.site_id }))
        assert.strictEqual(yield* users.activeAdmins, before + 1)
        const seen = yield* waitsForCommit(
          Effect.zipRight(
            users.activeAdmins,
            users.update({ ...admin, user: new User({ ...admin.user, admin: false }), tokenVersion: 1 })
          ),
          users.activeAdmins
        )
        assert.strictEqual(seen, before)
      }))
  })

  describe("SettingRepository", () => {
    it.effect("keeps the first value of a setting", () =>
      Effect.gen(function*() {
        const settings = yield* SettingRepository
        const key = fresh("key")
        assert.strictEqual(yield* settings.getOrInsert(key, () => "first"), "first")
        assert.strictEqual(yield* settings.getOrInsert(key, () => "second"), "first")
        assert.strictEqual(yield* settings.getOrInsert(fresh("key"), () => ""), "")
      }))

    it.effect("gives racing writers of one setting the same value", () =>
      Effect.gen(function*() {
        const settings = yield* SettingRepository
        const key = fresh("key")
        const values = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => settings.getOrInsert(key, () => `value ${i}`)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(new Set(values).size, 1)
        // A transaction that wrote the setting first wins over one that comes while it is open.
        const other = fresh("key")
        assert.strictEqual(
          yield* waitsForCommit(settings.getOrInsert(other, () => "held"), settings.getOrInsert(other, () => "late")),
          "held"
        )
      }))
  })
})
