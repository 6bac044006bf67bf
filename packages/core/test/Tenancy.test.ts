import { assert, describe, it } from "@effect/vitest"
import {
  type Actor,
  Administration,
  Client,
  ClientId,
  PasswordHasher,
  type Principal,
  type Scope,
  type ScopeTarget,
  Site,
  SiteId,
  Tenancy,
  UserId
} from "@wms/core"
import { SqliteStore } from "@wms/sql-sqlite"
import { Effect, Either, Layer } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../testing/properties.js"

const siteIds = ["s1", "s2", "s3"] as const
const clientIds = ["c1", "c2", "c3", "c4"] as const

const siteId = fc.constantFrom(...siteIds).map(SiteId.make)
const clientId = fc.constantFrom(...clientIds).map(ClientId.make)

const site = fc.record({ site_id: siteId, name: fc.constant("Site"), fulfillment: fc.boolean() })
  .map((_) => new Site(_))

const target: fc.Arbitrary<ScopeTarget | undefined> = fc.oneof(
  site.map((site): ScopeTarget => ({ _tag: "Site", site })),
  fc.tuple(site, clientId).map(([site, client_id]): ScopeTarget => ({
    _tag: "Client",
    site: new Site({ ...site, fulfillment: true }),
    client: new Client({ client_id, site_id: site.site_id, name: "Client" })
  })),
  fc.constant(undefined)
)

const principal: fc.Arbitrary<Principal> = fc.record({
  userId: fc.constant(UserId.make("u")),
  admin: fc.boolean(),
  site: siteId,
  client: fc.option(clientId, { nil: null })
})

const scope: fc.Arbitrary<Scope> = fc.record({
  site_id: siteId,
  fulfillment: fc.boolean(),
  client_id: fc.option(clientId, { nil: null })
})

const owner = fc.record({ site_id: siteId, client_id: fc.option(clientId, { nil: null }) })

const params = { fastCheck: { numRuns: propertyRuns(500) } }

describe("the tenancy rule", () => {
  it.prop("resolveScope never grants a non-admin a scope outside its home", [principal, target], ([p, t]) => {
    const result = Tenancy.resolveScope(p, t)
    if (t === undefined) {
      assert.isTrue(Either.isLeft(result))
      return
    }
    if (Either.isLeft(result)) {
      assert.strictEqual(result.left.message, "Invalid site")
      assert.isFalse(p.admin)
      return
    }
    const granted = result.right
    assert.strictEqual(granted.site_id, t.site.site_id)
    assert.strictEqual(granted.fulfillment, t.site.fulfillment)
    assert.strictEqual(granted.client_id, t._tag === "Client" ? t.client.client_id : null)
    if (!p.admin) {
      assert.strictEqual(granted.site_id, p.site)
      if (p.client !== null) assert.strictEqual(granted.client_id, p.client)
    }
  }, params)

  it.prop("resolveScope grants an admin any target, a user any target of its home", [principal, target], ([p, t]) => {
    if (t === undefined) return
    const own = t.site.site_id === p.site &&
      (p.client === null || (t._tag === "Client" && t.client.client_id === p.client))
    assert.strictEqual(Either.isRight(Tenancy.resolveScope(p, t)), p.admin || own)
  }, params)

  it.prop("canSee holds only for the scope's site and, in a client scope, its client", [scope, owner], ([s, o]) => {
    const visible = Tenancy.canSee(s, o)
    if (o.site_id !== s.site_id) assert.isFalse(visible)
    else if (s.client_id === null) assert.isTrue(visible)
    else assert.strictEqual(visible, o.client_id === s.client_id)
  }, params)

  it.prop("a record created in a scope is visible in it and in its site's scope", [scope], ([s]) => {
    const created = Tenancy.ownerOf(s)
    assert.isTrue(Tenancy.canSee(s, created))
    assert.isTrue(Tenancy.canSee({ ...s, client_id: null }, created))
  }, params)

  it.prop(
    "every scope resolveScope grants sees only records of its own site and client",
    [principal, target, owner],
    ([p, t, o]) => {
      const result = Tenancy.resolveScope(p, t)
      if (t === undefined || Either.isLeft(result) || !Tenancy.canSee(result.right, o)) return
      assert.strictEqual(o.site_id, t.site.site_id)
      if (t._tag === "Client") assert.strictEqual(o.client_id, t.client.client_id)
      if (!p.admin) {
        assert.strictEqual(o.site_id, p.site)
        if (p.client !== null) assert.strictEqual(o.client_id, p.client)
      }
    },
    params
  )

  it.prop("requireAdmin lets only admins through", [fc.boolean()], ([admin]) => {
    const result = Tenancy.requireAdmin({ admin })
    assert.strictEqual(Either.isRight(result), admin)
    if (Either.isLeft(result)) assert.strictEqual(result.left.message, "Admin rights required")
  })
})

/** Hashing is not under test here; a cheap one keeps a hundred users per run fast. */
const plainHasher = Layer.succeed(PasswordHasher, {
  hash: (password) => Effect.succeed(`plain:${password}`),
  verify: (password, hash) => Effect.succeed(hash === `plain:${password}`),
  needsRehash: () => false
})

const store = () =>
  Administration.Default.pipe(
    Layer.provide(plainHasher),
    Layer.provide(SqliteStore.layer({ filename: ":memory:" }))
  )

const installation = fc.record({
  sites: fc.uniqueArray(fc.record({ site_id: fc.constantFrom("s1", "s2", "s3", "s4"), fulfillment: fc.boolean() }), {
    minLength: 1,
    selector: (_) => _.site_id
  }),
  clients: fc.uniqueArray(fc.tuple(fc.constantFrom("c1", "c2", "c3", "c4", "c5"), fc.nat()), {
    selector: ([id]) => id
  }),
  users: fc.array(fc.tuple(fc.nat(), fc.option(fc.nat(), { nil: null }), fc.boolean()), { maxLength: 8 }),
  header: fc.nat()
})

describe("administration through a real store", () => {
  it.effect.prop(
    "an admin lists only the clients and users of the site of its scope",
    [installation],
    ([generated]) =>
      Effect.gen(function*() {
        const administration = yield* Administration
        const root: Actor = {
          userId: UserId.make("root"),
          admin: true,
          scope: { site_id: SiteId.make("s1"), fulfillment: false, client_id: null }
        }
        for (const s of generated.sites) {
          yield* administration.createSite(root, {
            site_id: SiteId.make(s.site_id),
            name: s.site_id,
            fulfillment: s.fulfillment
          })
        }
        const fulfillmentSites = generated.sites.filter((s) => s.fulfillment)
        const clients = fulfillmentSites.length === 0 ? [] : generated.clients.map(([client_id, n]) => ({
          client_id,
          site_id: fulfillmentSites[n % fulfillmentSites.length].site_id
        }))
        for (const client of clients) {
          const actor = yield* administration.actorFor(
            { userId: root.userId, admin: true, site: root.scope.site_id, client: null },
            client.site_id
          )
          yield* administration.createClient(actor, { client_id: ClientId.make(client.client_id), name: "C" })
        }
        const users = generated.users.map(([n, c, admin], i) => {
          const home = generated.sites[n % generated.sites.length].site_id
          const own = clients.filter((client) => client.site_id === home)
          return {
            email: `user${i}@example.com`,
            site: home,
            client: c === null || own.length === 0 ? null : own[c % own.length].client_id,
            admin
          }
        })
        for (const user of users) {
          yield* administration.createUser(root, {
            email: user.email,
            password: "password",
            name: user.email,
            admin: user.admin,
            site: SiteId.make(user.site),
            client: user.client === null ? null : ClientId.make(user.client)
          })
        }
        const headers = [...generated.sites.map((s) => s.site_id), ...clients.map((c) => c.client_id)]
        const header = headers[generated.header % headers.length]
        const home = generated.sites[generated.header % generated.sites.length].site_id
        const actor = yield* administration.actorFor(
          { userId: UserId.make("admin"), admin: true, site: SiteId.make(home), client: null },
          header
        )
        const scopeSite = actor.scope.site_id
        assert.strictEqual(scopeSite, clients.find((c) => c.client_id === header)?.site_id ?? header)
        const listedClients = yield* administration.listClients(actor)
        assert.isTrue(listedClients.every((client) => client.site_id === scopeSite))
        assert.sameMembers(
          listedClients.map((client) => client.client_id),
          clients.filter((client) => client.site_id === scopeSite).map((client) => client.client_id)
        )
        const listedUsers = yield* administration.listUsers(actor)
        assert.isTrue(listedUsers.every((user) => user.site === scopeSite))
        assert.isTrue(listedUsers.every((user) =>
          user.client === null || clients.some((c) => c.client_id === user.client && c.site_id === scopeSite)
        ))
        assert.sameMembers(
          listedUsers.map((user) =>
            user.email
          ),
          users.filter((user) => user.site === scopeSite).map((user) => user.email)
        )
      }).pipe(Effect.provide(store())),
    { fastCheck: { numRuns: propertyRuns(50) } }
  )
})
