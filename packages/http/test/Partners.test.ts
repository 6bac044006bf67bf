import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { insertOrder, insertPreAdvice } from "../../../testing/fixtures.js"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"
import { expect204, expectError, lastId, makeTenants } from "../../../testing/world.js"

const kinds = [
  { path: "/customers", title: "Customer", type: "customer", usedBy: "orders" },
  { path: "/suppliers", title: "Supplier", type: "supplier", usedBy: "pre-advices" }
] as const

const recordKeys = [
  "id",
  "address_id",
  "name",
  "attention",
  "address",
  "zipcode",
  "town",
  "country",
  "phone",
  "website"
]

const full = {
  name: "Acme B.V.",
  attention: "J. Jansen",
  address: "Dorpsstraat 1",
  zipcode: "1234 AB",
  town: "Utrecht",
  country: "NL",
  phone: "+31 30 123 4567",
  website: "https://acme.example"
}

const empty = { attention: null, address: null, zipcode: null, town: null, country: null, phone: null, website: null }

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`customers and suppliers on ${label}`, (it) => {
    for (const kind of kinds) {
      const { path, title } = kind

      it.effect(`POST ${path} creates a record the list and GET /:id show with every field`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          expect204(yield* t.P.post(path, full))
          expect204(yield* t.P.post(path, { name: "Bare", extra: "ignored", id: 999999 }))
          const list = yield* t.P.get(path)
          assert.strictEqual(list.status, 200)
          assert.strictEqual(list.body.length, 2)
          const [first, bare] = list.body
          assert.deepStrictEqual(Object.keys(first), recordKeys)
          assert.deepStrictEqual(first, { id: first.id, address_id: first.id, ...full })
          assert.deepStrictEqual(bare, { id: bare.id, address_id: bare.id, name: "Bare", ...empty })
          assert.notStrictEqual(bare.id, 999999)
          const one = yield* t.P.get(`${path}/${first.id}`)
          assert.strictEqual(one.status, 200)
          assert.deepStrictEqual(Object.keys(one.body), [...recordKeys, "address_type"])
          assert.deepStrictEqual(one.body, { ...first, address_type: kind.type })
        }))

      it.effect(`POST ${path}: empty optional fields are stored as null`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          expect204(yield* t.P.post(path, { name: "Blank", town: "", phone: null }))
          const id = yield* lastId(t.P, path)
          const one = yield* t.P.get(`${path}/${id}`)
          assert.deepStrictEqual(one.body, { id, address_id: id, name: "Blank", ...empty, address_type: kind.type })
        }))

      it.effect(`POST ${path}: a missing, blank or mistyped field is a 400 naming it`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          expectError(yield* t.P.post(path, { town: "Utrecht" }), 400, "Missing field name")
          expectError(yield* t.P.post(path, { name: "" }), 400, "Invalid field name: must not be empty")
          expectError(yield* t.P.post(path, { name: "   " }), 400, "Invalid field name: must not be empty")
          expectError(yield* t.P.post(path, { name: 5 }), 400, "Invalid field name: Expected string, actual 5")
          expectError(
            yield* t.P.post(path, { name: "A", town: 7 }),
            400,
            "Invalid field town: Expected string, actual 7"
          )
          expectError(
            yield* t.P.post(path, { name: "A\u0000B" }),
            400,
            "Invalid field name: must not contain NUL characters"
          )
          assert.deepStrictEqual((yield* t.P.get(path)).body, [])
        }))

      it.effect(`PUT ${path}/:id replaces every field: what is left out becomes null`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          expect204(yield* t.P.post(path, full))
          const id = yield* lastId(t.P, path)
          expect204(yield* t.P.put(`${path}/${id}`, { name: "Renamed", town: "Delft" }))
          const one = yield* t.P.get(`${path}/${id}`)
          assert.deepStrictEqual(one.body, {
            id,
            address_id: id,
            name: "Renamed",
            ...empty,
            town: "Delft",
            address_type: kind.type
          })
          expectError(yield* t.P.put(`${path}/${id}`, { town: "Delft" }), 400, "Missing field name")
          assert.strictEqual((yield* t.P.get(`${path}/${id}`)).body.name, "Renamed")
        }))

      it.effect(`DELETE ${path}/:id answers 204 and the record is gone`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          expect204(yield* t.P.post(path, { name: "Short-lived" }))
          const id = yield* lastId(t.P, path)
          expect204(yield* t.P.del(`${path}/${id}`))
          expectError(yield* t.P.get(`${path}/${id}`), 404, `${title} with id ${id} not found`)
          assert.deepStrictEqual((yield* t.P.get(path)).body, [])
        }))

      it.effect(`GET, PUT and DELETE ${path}/:id of a missing record: 404 ${title} with id <id> not found`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          const message = `${title} with id 987654 not found`
          expectError(yield* t.P.get(`${path}/987654`), 404, message)
          expectError(yield* t.P.put(`${path}/987654`, { name: "X" }), 404, message)
          expectError(yield* t.P.del(`${path}/987654`), 404, message)
          assert.deepStrictEqual((yield* t.P.get(path)).body, [])
        }))

      it.effect(`${path}/:id that is not an integer: 400`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          for (const id of ["abc", "1.5", "-1", "0", "1e3", "99999999999"]) {
            for (
              const response of [
                yield* t.P.get(`${path}/${id}`),
                yield* t.P.put(`${path}/${id}`, { name: "X" }),
                yield* t.P.del(`${path}/${id}`)
              ]
            ) {
              expectError(response, 400, "Invalid field id: must be an integer id")
            }
          }
        }))

      it.effect(`DELETE ${path}/:id of a record in use: 409 ${title} <id> is used by ${kind.usedBy}`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          expect204(yield* t.P.post(path, { name: "Busy" }))
          const id = yield* lastId(t.P, path)
          yield* kind.type === "customer"
            ? insertOrder({ site_id: t.p, customer_id: id })
            : insertPreAdvice({ site_id: t.p, supplier_id: id })
          expectError(yield* t.P.del(`${path}/${id}`), 409, `${title} ${id} is used by ${kind.usedBy}`)
          assert.strictEqual((yield* t.P.get(`${path}/${id}`)).status, 200)
        }))

      it.effect(`${path} are owned by the scope: a client's are seen by it and its site only`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          expect204(yield* t.F1.post(path, { name: "Of F1" }))
          const id = yield* lastId(t.F1, path)
          expect204(yield* t.F.post(path, { name: "Of F" }))
          const siteOwned = yield* lastId(t.F, path)
          assert.deepStrictEqual((yield* t.F1.get(path)).body.map((r: { id: number }) => r.id), [id])
          assert.deepStrictEqual((yield* t.F.get(path)).body.map((r: { id: number }) => r.id), [id, siteOwned])
          assert.deepStrictEqual((yield* t.F2.get(path)).body, [])
          assert.deepStrictEqual((yield* t.P.get(path)).body, [])
          for (const other of [t.F2, t.P]) {
            const message = `${title} with id ${id} not found`
            expectError(yield* other.get(`${path}/${id}`), 404, message)
            expectError(yield* other.put(`${path}/${id}`, { name: "Taken" }), 404, message)
            expectError(yield* other.del(`${path}/${id}`), 404, message)
          }
          expectError(yield* t.F1.get(`${path}/${siteOwned}`), 404, `${title} with id ${siteOwned} not found`)
          expect204(yield* t.F.put(`${path}/${id}`, { name: "Of F1, renamed by F" }))
          assert.strictEqual((yield* t.F1.get(`${path}/${id}`)).body.name, "Of F1, renamed by F")
        }))
    }

    it.effect("every master data endpoint needs the token (401), then the site header (403)", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const endpoints = [
          ...["/customers", "/suppliers", "/carriers"].flatMap((path) => [
            ["GET", path] as const,
            ["POST", path] as const,
            ["GET", `${path}/1`] as const,
            ["PUT", `${path}/1`] as const,
            ["DELETE", `${path}/1`] as const
          ]),
          ["GET", "/skugroups"],
          ["POST", "/skugroups"],
          ["GET", "/skugroups/1"],
          ["PUT", "/skugroups/1"],
          ["DELETE", "/skugroups/1"],
          ["GET", "/skus"],
          ["POST", "/skus"],
          ["GET", "/skus/A"],
          ["PUT", "/skus/A"],
          ["GET", "/pickmethods"]
        ] as const
        for (const [method, path] of endpoints) {
          const body = method === "POST" || method === "PUT" ? {} : undefined
          const noToken = yield* api.request(method, path, { site: "main", body })
          assert.deepStrictEqual(
            [path, noToken.status, noToken.body],
            [path, 401, { message: "Missing authorization token" }]
          )
          const noSite = yield* api.request(method, path, { token, body })
          assert.deepStrictEqual([path, noSite.status, noSite.body], [path, 403, { message: "Missing header site" }])
          const badSite = yield* api.request(method, path, { token, site: "nowhere", body })
          assert.deepStrictEqual([path, badSite.status, badSite.body], [path, 403, { message: "Invalid site" }])
        }
      }))

    it.effect("customers and suppliers are kept apart", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/customers", { name: "Only a customer" }))
        const id = yield* lastId(t.P, "/customers")
        assert.deepStrictEqual((yield* t.P.get("/suppliers")).body, [])
        expectError(yield* t.P.get(`/suppliers/${id}`), 404, `Supplier with id ${id} not found`)
      }))
  })
}
