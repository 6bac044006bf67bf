import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { insertOrder } from "../../../testing/fixtures.js"
import { serverOnApiTestStores } from "../../../testing/server.js"
import { expect204, expectError, lastId, makeTenants } from "../../../testing/world.js"

const full = {
  name: "PostNL",
  address: "Prinses Beatrixlaan 23",
  zipcode: "2595 AK",
  town: "Den Haag",
  country: "NL",
  phone: "088 868 6868",
  url: "https://www.postnl.nl"
}

const empty = { address: null, zipcode: null, town: null, country: null, phone: null, url: null }

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`carriers on ${label}`, (it) => {
    it.effect("POST /carriers creates a carrier of the site; the list and GET /:id show every field", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/carriers", full))
        expect204(yield* t.P.post("/carriers", { name: "DHL", town: "", site_id: "elsewhere" }))
        const list = yield* t.P.get("/carriers")
        assert.strictEqual(list.status, 200)
        const [postnl, dhl] = list.body
        assert.deepStrictEqual(
          Object.keys(postnl),
          ["id", "site_id", "name", "address", "zipcode", "town", "country", "phone", "url"]
        )
        assert.deepStrictEqual(list.body, [
          { id: postnl.id, site_id: t.p, ...full },
          { id: dhl.id, site_id: t.p, name: "DHL", ...empty }
        ])
        const one = yield* t.P.get(`/carriers/${dhl.id}`)
        assert.deepStrictEqual([one.status, one.body], [200, dhl])
      }))

    it.effect("POST /carriers: a missing, blank or mistyped field is a 400 naming it", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expectError(yield* t.P.post("/carriers", { url: "https://x.example" }), 400, "Missing field name")
        expectError(yield* t.P.post("/carriers", { name: " " }), 400, "Invalid field name: must not be empty")
        expectError(
          yield* t.P.post("/carriers", { name: "X", url: false }),
          400,
          "Invalid field url: Expected string, actual false"
        )
        expectError(yield* t.P.post("/carriers", [{ name: "X" }]), 400, "Request body must be a JSON object")
        assert.deepStrictEqual((yield* t.P.get("/carriers")).body, [])
      }))

    it.effect("PUT /carriers/:id replaces every field: what is left out becomes null", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/carriers", full))
        const id = yield* lastId(t.P, "/carriers")
        expect204(yield* t.P.put(`/carriers/${id}`, { name: "PostNL Pakketten", phone: "0900" }))
        const one = yield* t.P.get(`/carriers/${id}`)
        assert.deepStrictEqual(one.body, { id, site_id: t.p, name: "PostNL Pakketten", ...empty, phone: "0900" })
      }))

    it.effect("DELETE /carriers/:id answers 204; a carrier in use by an order gets 409", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/carriers", { name: "Gone" }))
        const gone = yield* lastId(t.P, "/carriers")
        expect204(yield* t.P.post("/carriers", { name: "Busy" }))
        const busy = yield* lastId(t.P, "/carriers")
        yield* insertOrder({ site_id: t.p, carrier_id: busy })
        expect204(yield* t.P.del(`/carriers/${gone}`))
        expectError(yield* t.P.get(`/carriers/${gone}`), 404, `Carrier with id ${gone} not found`)
        expectError(yield* t.P.del(`/carriers/${busy}`), 409, `Carrier ${busy} is used by orders`)
        assert.deepStrictEqual((yield* t.P.get("/carriers")).body.map((c: { id: number }) => c.id), [busy])
      }))

    it.effect("a missing carrier: 404 Carrier with id <id> not found; a non-integer id: 400", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expectError(yield* t.P.get("/carriers/424242"), 404, "Carrier with id 424242 not found")
        expectError(yield* t.P.put("/carriers/424242", { name: "X" }), 404, "Carrier with id 424242 not found")
        expectError(yield* t.P.del("/carriers/424242"), 404, "Carrier with id 424242 not found")
        for (const id of ["x", "2.0", "-3"]) {
          expectError(yield* t.P.get(`/carriers/${id}`), 400, "Invalid field id: must be an integer id")
          expectError(yield* t.P.put(`/carriers/${id}`, { name: "X" }), 400, "Invalid field id: must be an integer id")
          expectError(yield* t.P.del(`/carriers/${id}`), 400, "Invalid field id: must be an integer id")
        }
      }))

    it.effect("carriers belong to the site: every scope of it sees and maintains them, other sites get 404", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.F1.post("/carriers", { name: "Made by F1" }))
        const id = yield* lastId(t.F1, "/carriers")
        for (const scope of [t.F, t.F1, t.F2]) {
          const list = yield* scope.get("/carriers")
          assert.deepStrictEqual(list.body, [{ id, site_id: t.f, name: "Made by F1", ...empty }])
          assert.strictEqual((yield* scope.get(`/carriers/${id}`)).status, 200)
        }
        expect204(yield* t.F2.put(`/carriers/${id}`, { name: "Renamed by F2" }))
        assert.strictEqual((yield* t.F1.get(`/carriers/${id}`)).body.name, "Renamed by F2")
        assert.deepStrictEqual((yield* t.P.get("/carriers")).body, [])
        expectError(yield* t.P.get(`/carriers/${id}`), 404, `Carrier with id ${id} not found`)
        expectError(yield* t.P.put(`/carriers/${id}`, { name: "Stolen" }), 404, `Carrier with id ${id} not found`)
        expectError(yield* t.P.del(`/carriers/${id}`), 404, `Carrier with id ${id} not found`)
        expect204(yield* t.F.del(`/carriers/${id}`))
      }))
  })
}
