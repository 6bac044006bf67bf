import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"
import { type Caller, callerFor, checkProperty, expect204, makeTenants, unique } from "../../../testing/world.js"

type Kind = "customers" | "suppliers" | "carriers" | "skugroups" | "skus"
const kinds: ReadonlyArray<Kind> = ["customers", "suppliers", "carriers", "skugroups", "skus"]

/** A scope of a generated world: a site, or a client of a fulfillment site. */
interface ScopeOf {
  readonly header: string
  readonly site: string
  readonly client: string | null
}

const canSee = (viewer: ScopeOf, creator: ScopeOf, kind: Kind) =>
  viewer.site === creator.site && (kind === "carriers" || viewer.client === null || viewer.client === creator.client)

const keyOf = (kind: Kind, record: Record<string, unknown>) =>
  String(kind === "skugroups" ? record.sku_group_id : kind === "skus" ? record.sku_id : record.id)

const worldArbitrary = fc.record({
  // The number of clients of each site; a site with none is a plain site.
  sites: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
  records: fc.array(
    fc.record({ scope: fc.nat(), kind: fc.constantFrom(...kinds), name: fc.string({ maxLength: 10 }) }),
    { minLength: 1, maxLength: 8 }
  )
})

// A value of the wrong type, out of range, empty, huge or nested: what a careless or hostile body holds.
const junkValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.fullUnicodeString({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("", " ", "\u0000", "1", "2", "-1", "$client"),
  fc.constantFrom(0, -1, 1, 2, 3, 1.5, 2 ** 31, 1e308, Number.MAX_SAFE_INTEGER),
  fc.constant("x".repeat(200_000)),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.object({ maxDepth: 2 })
)

const removed = Symbol("removed")

/** A valid body with a few fields changed to junk or left out, plus stray keys; or no object at all. */
const junkBody = (valid: Record<string, unknown>, fields: ReadonlyArray<string>) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.tuple(
        fc.array(fc.tuple(fc.constantFrom(...fields), fc.oneof(junkValue, fc.constant(removed))), {
          minLength: 1,
          maxLength: 4
        }),
        fc.dictionary(fc.string({ maxLength: 8 }), junkValue, { maxKeys: 2 })
      ).map(([changes, extra]) => {
        const body: Record<string, unknown> = { ...extra, ...valid }
        for (const [field, value] of changes) {
          if (value === removed) delete body[field]
          else body[field] = value
        }
        return body as unknown
      })
    },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) }
  )

const partnerFields = ["name", "attention", "address", "zipcode", "town", "country", "phone", "website"]
const carrierFields = ["name", "address", "zipcode", "town", "country", "phone", "url"]
const skuFields = [
  "sku_id",
  "description",
  "ean",
  "sku_group",
  "expiry_sku",
  "expiry_days",
  "obsolete",
  "new",
  "each_width",
  "each_height",
  "each_depth",
  "each_weight",
  "each_volume",
  "each_value",
  "preferred_putaway_location",
  "qty_on_full_pallet",
  "default_receipt_quantity",
  "pick_method",
  "client_id"
]

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`master data properties on ${label}`, (it) => {
    it.effect("no scope sees, reads, changes or deletes another scope's records", () =>
      checkProperty(worldArbitrary, ({ records, sites }) =>
        Effect.gen(function*() {
          const api = yield* Api
          const admin = yield* api.login()
          const main = yield* callerFor(admin, "main")
          const scopes: Array<ScopeOf> = []
          for (const clients of sites) {
            const site = unique("S")
            expect204(yield* main.post("/sites", { site_id: site, name: site, fulfillment: clients > 0 }))
            scopes.push({ header: site, site, client: null })
            for (let i = 0; i < clients; i++) {
              const client = unique("C")
              expect204(yield* (yield* callerFor(admin, site)).post("/clients", { client_id: client, name: client }))
              scopes.push({ header: client, site, client })
            }
          }
          const callers = new Map<string, Caller>()
          for (const scope of scopes) callers.set(scope.header, yield* callerFor(admin, scope.header))
          const created: Array<{ kind: Kind; key: string; creator: ScopeOf }> = []
          for (const [i, record] of records.entries()) {
            const creator = scopes[record.scope % scopes.length]
            const caller = callers.get(creator.header)!
            const name = `n${record.name}`
            const body = record.kind === "skugroups" || record.kind === "skus"
              ? { sku_id: `SKU-${i}`, description: name }
              : { name }
            expect204(yield* caller.post(`/${record.kind}`, body), `${record.kind} in ${creator.header}`)
            const list = (yield* caller.get(`/${record.kind}`)).body as Array<Record<string, unknown>>
            const key = record.kind === "skus" ? `SKU-${i}` : keyOf(record.kind, list[list.length - 1])
            created.push({ kind: record.kind, key, creator })
          }
          for (const viewer of scopes) {
            const caller = callers.get(viewer.header)!
            for (const kind of kinds) {
              const list = (yield* caller.get(`/${kind}`)).body as Array<Record<string, unknown>>
              const expected = created
                .filter((c) => c.kind === kind && canSee(viewer, c.creator, kind))
                .map((c) => c.key)
              assert.sameMembers(
                list.map((record) => keyOf(kind, record)),
                expected,
                `${kind} seen by ${viewer.header}`
              )
            }
            for (const { creator, key, kind } of created) {
              const path = `/${kind}/${encodeURIComponent(key)}`
              // Group ids are counted per site: another site may have a group of the same id.
              const visible = created.some((c) => c.kind === kind && c.key === key && canSee(viewer, c.creator, kind))
              assert.strictEqual(
                (yield* caller.get(path)).status,
                visible ? 200 : 404,
                `GET ${path} by ${viewer.header}`
              )
              if (visible || kind === "skus") continue
              // A write through another scope answers 404 and changes nothing.
              const body = kind === "skugroups" ? { description: "Taken" } : { name: "Taken" }
              assert.strictEqual((yield* caller.put(path, body)).status, 404, `PUT ${path} by ${viewer.header}`)
              assert.strictEqual((yield* caller.del(path)).status, 404, `DELETE ${path} by ${viewer.header}`)
              const owner = callers.get(creator.header)!
              assert.strictEqual((yield* owner.get(path)).status, 200)
            }
          }
        }), 8))

    const fuzz = (
      name: string,
      setup: (t: Effect.Effect.Success<typeof makeTenants>) => Effect.Effect<
        {
          readonly method: "POST" | "PUT"
          readonly path: string
          readonly list: string
          readonly record?: string
          readonly valid: Record<string, unknown>
          readonly fields: ReadonlyArray<string>
        },
        never,
        Api
      >
    ) =>
      it.effect(`${name}: fuzzed bodies never answer 5xx, and a 4xx writes nothing`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          const target = yield* setup(t)
          const caller = t.F
          const snapshot = Effect.gen(function*() {
            const list = yield* caller.get(target.list)
            const record = target.record === undefined ? undefined : yield* caller.get(target.record)
            return JSON.stringify([list.body, record?.status, record?.body])
          })
          let before = yield* snapshot
          yield* checkProperty(junkBody(target.valid, target.fields), (body) =>
            Effect.gen(function*() {
              const payload = JSON.parse(JSON.stringify(body ?? null).replaceAll("\"$client\"", JSON.stringify(t.f1)))
              const response = target.method === "POST"
                ? yield* caller.post(target.path, payload)
                : yield* caller.put(target.path, payload)
              assert.isBelow(
                response.status,
                500,
                `${JSON.stringify(response.body)} for ${JSON.stringify(payload).slice(0, 300)}`
              )
              const after = yield* snapshot
              if (response.status >= 400) {
                assert.isString(response.body?.message)
                assert.strictEqual(after, before, `a ${response.status} changed ${target.list}`)
              }
              before = after
            }), 30)
        }))

    for (const kind of ["customers", "suppliers", "carriers"] as const) {
      const fields = kind === "carriers" ? carrierFields : partnerFields
      const valid = Object.fromEntries(fields.map((field) => [field, `${field} value`]))
      fuzz(`POST /${kind}`, () => Effect.succeed({ method: "POST", path: `/${kind}`, list: `/${kind}`, valid, fields }))
      fuzz(`PUT /${kind}/:id`, (t) =>
        Effect.gen(function*() {
          expect204(yield* t.F.post(`/${kind}`, valid))
          const list = yield* t.F.get(`/${kind}`)
          const path = `/${kind}/${list.body[0].id}`
          return { method: "PUT", path, list: `/${kind}`, record: path, valid, fields } as const
        }))
    }

    const groupBody = { description: "Group", client_id: "$client" }
    fuzz("POST /skugroups", () =>
      Effect.succeed({
        method: "POST",
        path: "/skugroups",
        list: "/skugroups",
        valid: groupBody,
        fields: ["description", "client_id", "sku_group_id"]
      }))
    fuzz("PUT /skugroups/:id", (t) =>
      Effect.gen(function*() {
        expect204(yield* t.F.post("/skugroups", { description: "Group", client_id: t.f1 }))
        return {
          method: "PUT",
          path: "/skugroups/1",
          list: "/skugroups",
          record: "/skugroups/1",
          valid: { sku_group_id: "1", ...groupBody },
          fields: ["description", "client_id", "sku_group_id"]
        } as const
      }))

    const skuBody = (skuId: string) => ({
      sku_id: skuId,
      description: "Article",
      ean: "8710400000001",
      sku_group: "1",
      expiry_sku: true,
      expiry_days: 30,
      each_width: 1.5,
      pick_method: 2,
      qty_on_full_pallet: 100,
      client_id: "$client"
    })
    const withGroup = (t: Effect.Effect.Success<typeof makeTenants>) =>
      Effect.asVoid(Effect.map(t.F.post("/skugroups", { description: "Group", client_id: t.f1 }), expect204))
    fuzz("POST /skus", (t) =>
      Effect.gen(function*() {
        yield* withGroup(t)
        return { method: "POST", path: "/skus", list: "/skus", valid: skuBody("FUZZ"), fields: skuFields } as const
      }))
    fuzz("PUT /skus/:id of an existing SKU", (t) =>
      Effect.gen(function*() {
        yield* withGroup(t)
        expect204(yield* t.F.post("/skus", { sku_id: "OLD", description: "Old", client_id: t.f1 }))
        return {
          method: "PUT",
          path: "/skus/OLD",
          list: "/skus",
          record: "/skus/OLD",
          valid: skuBody("OLD"),
          fields: skuFields
        } as const
      }))
    fuzz("PUT /skus/:id of a new SKU", (t) =>
      Effect.gen(function*() {
        yield* withGroup(t)
        return {
          method: "PUT",
          path: "/skus/NEW",
          list: "/skus",
          record: "/skus/NEW",
          valid: skuBody("NEW"),
          fields: skuFields
        } as const
      }))
  })
}
