import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { serverOnApiTestStores } from "../../../testing/server.js"
import { type Caller, expect204, expectError, makeTenants } from "../../../testing/world.js"

const detailKeys = [
  "sku_id",
  "client_id",
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
  "pick_method"
]

const defaults = {
  client_id: null,
  ean: null,
  sku_group: null,
  expiry_sku: false,
  expiry_days: null,
  obsolete: false,
  new: true,
  each_width: null,
  each_height: null,
  each_depth: null,
  each_weight: null,
  each_volume: null,
  each_value: null,
  preferred_putaway_location: null,
  qty_on_full_pallet: null,
  default_receipt_quantity: null,
  pick_method: 1
}

const full = {
  description: "Pindakaas 350 g",
  ean: "8710400000001",
  expiry_sku: true,
  expiry_days: 180,
  obsolete: false,
  new: false,
  each_width: 7.5,
  each_height: 12,
  each_depth: 7.5,
  each_weight: 0.42,
  each_volume: 675,
  each_value: 2.99,
  preferred_putaway_location: "A-01-01",
  qty_on_full_pallet: 960,
  default_receipt_quantity: 12,
  pick_method: 2
}

/** Creates a SKU group and returns its generated id. */
const newGroup = (caller: Caller, body: Record<string, unknown>) =>
  Effect.gen(function*() {
    expect204(yield* caller.post("/skugroups", body))
    const list = yield* caller.get("/skugroups")
    return list.body[list.body.length - 1].sku_group_id as string
  })

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`SKUs, SKU groups and pick methods on ${label}`, (it) => {
    it.effect("GET /pickmethods lists Per qty and Per each", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const response = yield* t.F1.get("/pickmethods")
        assert.deepStrictEqual([response.status, response.body], [200, [
          { id: 1, description: "Per qty" },
          { id: 2, description: "Per each" }
        ]])
      }))

    it.effect("POST /skugroups generates numeric string ids counted per site", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        assert.strictEqual(yield* newGroup(t.P, { description: "Food" }), "1")
        assert.strictEqual(yield* newGroup(t.P, { description: "Drinks", sku_group_id: "77" }), "2")
        assert.strictEqual(yield* newGroup(t.F1, { description: "Of F1" }), "1")
        const list = yield* t.P.get("/skugroups")
        assert.deepStrictEqual([list.status, list.body], [200, [
          { sku_group_id: "1", description: "Food", client_id: null },
          { sku_group_id: "2", description: "Drinks", client_id: null }
        ]])
        const one = yield* t.P.get("/skugroups/2")
        assert.deepStrictEqual(
          [one.status, one.body],
          [200, { sku_group_id: "2", description: "Drinks", client_id: null }]
        )
      }))

    it.effect("concurrent POST /skugroups never share an id", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const responses = yield* Effect.all(
          Array.from({ length: 12 }, (_, i) => t.P.post("/skugroups", { description: `G${i}` })),
          { concurrency: "unbounded" }
        )
        for (const response of responses) expect204(response)
        const ids = (yield* t.P.get("/skugroups")).body.map((g: { sku_group_id: string }) => g.sku_group_id)
        assert.deepStrictEqual(ids, Array.from({ length: 12 }, (_, i) => String(i + 1)))
      }))

    it.effect("SKU groups are owned by a client: by the scope, or by client_id from the site", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const ofF1 = yield* newGroup(t.F1, { description: "Of F1" })
        const named = yield* newGroup(t.F, { description: "Named F2", client_id: t.f2 })
        const ofSite = yield* newGroup(t.F, { description: "Of the site" })
        assert.deepStrictEqual((yield* t.F1.get("/skugroups")).body, [
          { sku_group_id: ofF1, description: "Of F1", client_id: t.f1 }
        ])
        assert.deepStrictEqual((yield* t.F2.get("/skugroups")).body, [
          { sku_group_id: named, description: "Named F2", client_id: t.f2 }
        ])
        assert.strictEqual((yield* t.F.get("/skugroups")).body.length, 3)
        assert.deepStrictEqual((yield* t.P.get("/skugroups")).body, [])
        expectError(yield* t.F2.get(`/skugroups/${ofF1}`), 404, `SKU group with id ${ofF1} not found`)
        expectError(yield* t.F1.get(`/skugroups/${ofSite}`), 404, `SKU group with id ${ofSite} not found`)
        expectError(yield* t.P.get(`/skugroups/${ofF1}`), 404, `SKU group with id ${ofF1} not found`)
        expectError(
          yield* t.F1.post("/skugroups", { description: "X", client_id: t.f2 }),
          400,
          `Invalid field client_id: must be ${t.f1}, the client of the site header`
        )
        expectError(
          yield* t.F.post("/skugroups", { description: "X", client_id: "nobody" }),
          400,
          `Invalid field client_id: client nobody does not exist on site ${t.f}`
        )
        assert.strictEqual((yield* t.F.get("/skugroups")).body.length, 3)
      }))

    it.effect("POST /skugroups: a missing or blank description is a 400", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expectError(yield* t.P.post("/skugroups", {}), 400, "Missing field description")
        expectError(
          yield* t.P.post("/skugroups", { description: "" }),
          400,
          "Invalid field description: must not be empty"
        )
        expectError(
          yield* t.P.post("/skugroups", { description: 1 }),
          400,
          "Invalid field description: Expected string, actual 1"
        )
        assert.deepStrictEqual((yield* t.P.get("/skugroups")).body, [])
      }))

    it.effect("PUT /skugroups/:id sets the description; the id and the owner are fixed", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const id = yield* newGroup(t.F, { description: "Old", client_id: t.f1 })
        expect204(yield* t.F.put(`/skugroups/${id}`, { description: "New" }))
        expect204(yield* t.F1.put(`/skugroups/${id}`, { sku_group_id: id, description: "Newer", client_id: t.f1 }))
        assert.deepStrictEqual((yield* t.F.get(`/skugroups/${id}`)).body, {
          sku_group_id: id,
          description: "Newer",
          client_id: t.f1
        })
        expectError(
          yield* t.F.put(`/skugroups/${id}`, { sku_group_id: "99", description: "X" }),
          400,
          `Invalid field sku_group_id: must be ${id}, the id in the path`
        )
        expectError(
          yield* t.F.put(`/skugroups/${id}`, { description: "X", client_id: t.f2 }),
          400,
          `Invalid field client_id: SKU group ${id} belongs to client ${t.f1}`
        )
        expectError(yield* t.F.put(`/skugroups/${id}`, { sku_group_id: id }), 400, "Missing field description")
        expectError(yield* t.F2.put(`/skugroups/${id}`, { description: "X" }), 404, `SKU group with id ${id} not found`)
        expectError(yield* t.F.put("/skugroups/404", { description: "X" }), 404, "SKU group with id 404 not found")
        assert.strictEqual((yield* t.F.get(`/skugroups/${id}`)).body.description, "Newer")
      }))

    it.effect("DELETE /skugroups/:id answers 204; a group SKUs are in gets 409; a missing one 404", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const unused = yield* newGroup(t.P, { description: "Unused" })
        const used = yield* newGroup(t.P, { description: "Used" })
        expect204(yield* t.P.post("/skus", { sku_id: "IN-GROUP", description: "X", sku_group: used }))
        expect204(yield* t.P.del(`/skugroups/${unused}`))
        expectError(yield* t.P.get(`/skugroups/${unused}`), 404, `SKU group with id ${unused} not found`)
        expectError(yield* t.P.del(`/skugroups/${unused}`), 404, `SKU group with id ${unused} not found`)
        expectError(yield* t.P.del(`/skugroups/${used}`), 409, `SKU group ${used} is used by SKUs`)
        expect204(yield* t.P.put("/skus/IN-GROUP", { description: "X" }))
        expect204(yield* t.P.del(`/skugroups/${used}`))
      }))

    it.effect("POST /skus creates a SKU with defaults; GET /skus/:id and GET /skus show it exactly", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const group = yield* newGroup(t.P, { description: "Spreads" })
        expect204(yield* t.P.post("/skus", { sku_id: "MIN", description: "Minimal" }))
        expect204(yield* t.P.post("/skus", { sku_id: "FULL", ...full, sku_group: group }))
        const min = yield* t.P.get("/skus/MIN")
        assert.strictEqual(min.status, 200)
        assert.deepStrictEqual(Object.keys(min.body), detailKeys)
        assert.deepStrictEqual(min.body, { sku_id: "MIN", ...defaults, description: "Minimal" })
        const fullSku = yield* t.P.get("/skus/FULL")
        assert.deepStrictEqual(fullSku.body, { sku_id: "FULL", client_id: null, ...full, sku_group: group })
        const list = yield* t.P.get("/skus")
        assert.strictEqual(list.status, 200)
        assert.deepStrictEqual(Object.keys(list.body[0]), [
          "sku_id",
          "client_id",
          "description",
          "ean",
          "sku_group_description",
          "expiry_sku",
          "expiry_days"
        ])
        assert.deepStrictEqual(list.body, [
          {
            sku_id: "FULL",
            client_id: null,
            description: full.description,
            ean: full.ean,
            sku_group_description: "Spreads",
            expiry_sku: true,
            expiry_days: 180
          },
          {
            sku_id: "MIN",
            client_id: null,
            description: "Minimal",
            ean: null,
            sku_group_description: null,
            expiry_sku: false,
            expiry_days: null
          }
        ])
      }))

    it.effect("POST /skus of an id the site has: 409 SKU with id <id> already exists, also across clients", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.F1.post("/skus", { sku_id: "DUP", description: "First" }))
        expectError(
          yield* t.F1.post("/skus", { sku_id: "DUP", description: "Again" }),
          409,
          "SKU with id DUP already exists"
        )
        expectError(
          yield* t.F2.post("/skus", { sku_id: "DUP", description: "Other" }),
          409,
          "SKU with id DUP already exists"
        )
        expect204(yield* t.P.post("/skus", { sku_id: "DUP", description: "Another site" }))
        assert.strictEqual((yield* t.F.get("/skus/DUP")).body.description, "First")
      }))

    it.effect("SKU write bodies: missing, mistyped and out-of-range fields are 400s naming them", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const cases: Array<[unknown, string]> = [
          [{ description: "X" }, "Missing field sku_id"],
          [{ sku_id: "S" }, "Missing field description"],
          [{ sku_id: "", description: "X" }, "Invalid field sku_id: must not be empty"],
          [{ sku_id: "S".repeat(65), description: "X" }, "Invalid field sku_id: must be at most 64 characters"],
          [{ sku_id: 12, description: "X" }, "Invalid field sku_id: Expected string, actual 12"],
          [
            { sku_id: "S", description: "X", expiry_days: -1 },
            "Invalid field expiry_days: must be a whole number from 0 to 2147483647"
          ],
          [
            { sku_id: "S", description: "X", expiry_days: 1.5 },
            "Invalid field expiry_days: must be a whole number from 0 to 2147483647"
          ],
          [
            { sku_id: "S", description: "X", qty_on_full_pallet: 2 ** 31 },
            "Invalid field qty_on_full_pallet: must be a whole number from 0 to 2147483647"
          ],
          [
            { sku_id: "S", description: "X", each_weight: -0.1 },
            "Invalid field each_weight: must be a number of at least 0"
          ],
          [
            { sku_id: "S", description: "X", each_width: "7" },
            "Invalid field each_width: Expected number, actual \"7\""
          ],
          [
            { sku_id: "S", description: "X", pick_method: 3 },
            "Invalid field pick_method: must be 1 (per qty) or 2 (per each)"
          ],
          [
            { sku_id: "S", description: "X", expiry_sku: "yes" },
            "Invalid field expiry_sku: Expected boolean, actual \"yes\""
          ],
          [
            { sku_id: "S", description: "X", expiry_sku: true },
            "Invalid field expiry_days: is required when expiry_sku is true"
          ],
          [{ sku_id: "S", description: "X", sku_group: "42" }, "Invalid field sku_group: SKU group 42 does not exist"],
          [{ sku_id: "S", description: "X", sku_group: 42 }, "Invalid field sku_group: Expected string, actual 42"]
        ]
        for (const [body, message] of cases) {
          expectError(yield* t.P.post("/skus", body), 400, message)
          const { sku_id: _, ...rest } = body as Record<string, unknown>
          if (message.startsWith("Invalid field sku_id") || message === "Missing field sku_id") continue
          expectError(yield* t.P.put("/skus/S", rest), 400, message)
        }
        assert.deepStrictEqual((yield* t.P.get("/skus")).body, [])
        expectError(yield* t.P.get("/skus/S"), 404, "SKU with id S not found")
      }))

    it.effect("U+0000, which PostgreSQL cannot take, is a 400 in bodies, client ids and path ids", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const nul = "must not contain NUL characters"
        expectError(
          yield* t.F.post("/skus", { sku_id: "A\u0000", description: "X" }),
          400,
          `Invalid field sku_id: ${nul}`
        )
        expectError(
          yield* t.F.post("/skus", { sku_id: "A", description: "X", ean: "\u0000" }),
          400,
          `Invalid field ean: ${nul}`
        )
        expectError(
          yield* t.F.post("/skugroups", { description: "X", client_id: "C\u0000" }),
          400,
          `Invalid field client_id: ${nul}`
        )
        expectError(
          yield* t.F.put("/skus/A", { description: "X", client_id: "\u0000" }),
          400,
          `Invalid field client_id: ${nul}`
        )
        for (const path of ["/skus/A%00", "/skugroups/1%00"]) {
          expectError(yield* t.F.get(path), 400, `Invalid field id: ${nul}`)
          expectError(yield* t.F.put(path, { description: "X" }), 400, `Invalid field id: ${nul}`)
        }
        expectError(yield* t.F.del("/skugroups/%00"), 400, `Invalid field id: ${nul}`)
        assert.deepStrictEqual((yield* t.F.get("/skus")).body, [])
        assert.deepStrictEqual((yield* t.F.get("/skugroups")).body, [])
      }))

    it.effect("null for a flag or the pick method means its default; expiry_days 0 is allowed", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(
          yield* t.P.post("/skus", {
            sku_id: "N",
            description: "X",
            expiry_sku: true,
            expiry_days: 0,
            obsolete: null,
            new: null,
            pick_method: null,
            ean: ""
          })
        )
        assert.deepStrictEqual((yield* t.P.get("/skus/N")).body, {
          sku_id: "N",
          ...defaults,
          description: "X",
          expiry_sku: true,
          expiry_days: 0
        })
      }))

    it.effect("PUT /skus/:id creates a missing SKU, then replaces every field; sku_id must match the path", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.put("/skus/UP", { sku_id: "UP", ...full }))
        assert.deepStrictEqual(
          (yield* t.P.get("/skus/UP")).body,
          { sku_id: "UP", client_id: null, ...full, sku_group: null }
        )
        expect204(yield* t.P.put("/skus/UP", { ...full }))
        expect204(yield* t.P.put("/skus/UP", { description: "Plain" }))
        assert.deepStrictEqual((yield* t.P.get("/skus/UP")).body, { sku_id: "UP", ...defaults, description: "Plain" })
        expectError(
          yield* t.P.put("/skus/UP", { sku_id: "OTHER", description: "X" }),
          400,
          "Invalid field sku_id: must be UP, the id in the path"
        )
        expectError(
          yield* t.P.put("/skus/NEW", { sku_id: "OTHER", description: "X" }),
          400,
          "Invalid field sku_id: must be NEW, the id in the path"
        )
        expectError(yield* t.P.get("/skus/NEW"), 404, "SKU with id NEW not found")
        expectError(
          yield* t.P.put(`/skus/${"L".repeat(65)}`, { description: "X" }),
          400,
          "Invalid field sku_id: must be at most 64 characters"
        )
        assert.deepStrictEqual((yield* t.P.get("/skus")).body.map((s: { sku_id: string }) => s.sku_id), ["UP"])
      }))

    it.effect("a SKU id with spaces and symbols works in the path", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const id = "SKU 1/ä?#%"
        expect204(yield* t.P.put(`/skus/${encodeURIComponent(id)}`, { description: "Odd" }))
        const one = yield* t.P.get(`/skus/${encodeURIComponent(id)}`)
        assert.deepStrictEqual([one.status, one.body.sku_id], [200, id])
      }))

    it.effect("concurrent PUT /skus/:id of one new id all succeed and leave one SKU", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const responses = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => t.P.put("/skus/RACE", { description: `Take ${i}` })),
          { concurrency: "unbounded" }
        )
        for (const response of responses) expect204(response)
        const list = (yield* t.P.get("/skus")).body
        assert.deepStrictEqual(list.map((s: { sku_id: string }) => s.sku_id), ["RACE"])
      }))

    it.effect("SKUs are scoped: a client's are seen by it and its site; another client's id is taken (409)", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.F1.post("/skus", { sku_id: "A", description: "F1's" }))
        expect204(yield* t.F.post("/skus", { sku_id: "B", description: "F2's, by the site", client_id: t.f2 }))
        expect204(yield* t.F.put("/skus/C", { description: "The site's" }))
        const ids = (caller: Caller) =>
          Effect.map(caller.get("/skus"), (r) => r.body.map((s: { sku_id: string }) => s.sku_id))
        assert.deepStrictEqual(yield* ids(t.F1), ["A"])
        assert.deepStrictEqual(yield* ids(t.F2), ["B"])
        assert.deepStrictEqual(yield* ids(t.F), ["A", "B", "C"])
        assert.deepStrictEqual(yield* ids(t.P), [])
        assert.strictEqual((yield* t.F.get("/skus/A")).body.client_id, t.f1)
        assert.strictEqual((yield* t.F.get("/skus/B")).body.client_id, t.f2)
        expectError(yield* t.F2.get("/skus/A"), 404, "SKU with id A not found")
        expectError(yield* t.F1.get("/skus/C"), 404, "SKU with id C not found")
        expectError(yield* t.P.get("/skus/A"), 404, "SKU with id A not found")
        expectError(yield* t.F2.put("/skus/A", { description: "Mine now" }), 409, "SKU with id A already exists")
        expectError(
          yield* t.F.put("/skus/A", { description: "Moved", client_id: t.f2 }),
          400,
          `Invalid field client_id: SKU A belongs to client ${t.f1}`
        )
        expectError(
          yield* t.F.put("/skus/C", { description: "Moved", client_id: t.f2 }),
          400,
          "Invalid field client_id: SKU C belongs to the site"
        )
        expect204(yield* t.F.put("/skus/A", { description: "Renamed by the site" }))
        assert.deepStrictEqual((yield* t.F1.get("/skus/A")).body, {
          sku_id: "A",
          ...defaults,
          client_id: t.f1,
          description: "Renamed by the site"
        })
      }))

    it.effect("sku_group must be a group the scope sees and that belongs to the site or the SKU's client", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const ofF1 = yield* newGroup(t.F1, { description: "F1 group" })
        const ofF2 = yield* newGroup(t.F2, { description: "F2 group" })
        const ofSite = yield* newGroup(t.F, { description: "Site group" })
        const ofP = yield* newGroup(t.P, { description: "P group" })
        expect204(yield* t.F1.post("/skus", { sku_id: "OK", description: "X", sku_group: ofF1 }))
        expect204(yield* t.F.post("/skus", { sku_id: "OK2", description: "X", sku_group: ofSite, client_id: t.f1 }))
        const rejected = (caller: Caller, groupId: string, body: Record<string, unknown> = {}) =>
          Effect.gen(function*() {
            const message = `Invalid field sku_group: SKU group ${groupId} does not exist`
            expectError(
              yield* caller.post("/skus", { sku_id: "NO", description: "X", sku_group: groupId, ...body }),
              400,
              message
            )
            expectError(yield* caller.put("/skus/NO", { description: "X", sku_group: groupId, ...body }), 400, message)
          })
        yield* rejected(t.F1, ofF2)
        yield* rejected(t.F1, ofSite)
        yield* rejected(t.F, ofF2, { client_id: t.f1 })
        yield* rejected(t.F1, "999")
        expect204(yield* t.F.post("/skus", { sku_id: "OTHER-SITE", description: "X" }))
        if (ofP !== ofF1) yield* rejected(t.F, ofP)
        expectError(yield* t.F.get("/skus/NO"), 404, "SKU with id NO not found")
        assert.deepStrictEqual(
          (yield* t.F.get("/skus")).body.map((s: { sku_group_description: string | null }) => s.sku_group_description),
          ["F1 group", "Site group", null]
        )
      }))

    it.effect("every master data list takes the optional limit and offset", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        for (const i of [1, 2, 3]) {
          expect204(yield* t.P.post("/customers", { name: `C${i}` }))
          expect204(yield* t.P.post("/suppliers", { name: `S${i}` }))
          expect204(yield* t.P.post("/carriers", { name: `K${i}` }))
          expect204(yield* t.P.post("/skugroups", { description: `G${i}` }))
          expect204(yield* t.P.post("/skus", { sku_id: `SKU${i}`, description: `D${i}` }))
        }
        const label = (record: Record<string, unknown>) => record.name ?? record.description
        for (
          const [path, all] of [
            ["/customers", ["C1", "C2", "C3"]],
            ["/suppliers", ["S1", "S2", "S3"]],
            ["/carriers", ["K1", "K2", "K3"]],
            ["/skugroups", ["G1", "G2", "G3"]],
            ["/skus", ["D1", "D2", "D3"]],
            ["/pickmethods", ["Per qty", "Per each"]]
          ] as const
        ) {
          const page = (query: string) => Effect.map(t.P.get(`${path}${query}`), (r) => r.body.map(label))
          assert.deepStrictEqual(yield* page(""), all)
          assert.deepStrictEqual(yield* page("?limit=2"), all.slice(0, 2))
          assert.deepStrictEqual(yield* page("?offset=1&limit=1"), all.slice(1, 2))
          assert.deepStrictEqual(yield* page("?offset=1"), all.slice(1))
          assert.deepStrictEqual(yield* page("?limit=0"), [])
          expectError(
            yield* t.P.get(`${path}?limit=-1`),
            400,
            "Invalid field limit: must be a whole number from 0 to 999999999"
          )
          expectError(
            yield* t.P.get(`${path}?offset=x`),
            400,
            "Invalid field offset: must be a whole number from 0 to 999999999"
          )
        }
      }))

    it.effect("there is no DELETE /skus/:id", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "KEEP", description: "X" }))
        expectError(yield* t.P.del("/skus/KEEP"), 404, "Route DELETE /skus/KEEP not found")
        assert.strictEqual((yield* t.P.get("/skus/KEEP")).status, 200)
      }))
  })
}
