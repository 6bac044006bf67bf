import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { calendarDateOfDutchDate, criteria, criteriumDescription, pickTypeDescription, pickTypes } from "@wms/core"
import { Effect } from "effect"
import * as fc from "fast-check"
import { serverOnApiTestStores } from "../../../testing/server.js"
import { type Caller, checkProperty, expect204, expectError, lastId, makeTenants } from "../../../testing/world.js"

const criteriumTexts = [
  "Klant - Naam",
  "Order - Order ID",
  "Order - Datum",
  "Order - Vervoerder",
  "Alles",
  "Klant - Plaats",
  "Order - Te verzenden datum",
  "Fulfillment - Per client"
]
const pickTypeTexts = ["Per order", "Per wave", "Per klant", "Per vervoerder"]

const notFound = (id: number | string) => `Wave definitie met id ${id} niet gevonden`

// ---- Valid bodies and the record each must read back as --------------------------------------

interface Body {
  readonly description: string
  readonly criterium_id: number
  readonly value?: string | null
  readonly pick_type: number
  readonly autostart?: boolean | null
}

const expectedOf = (body: Body, id: number, site: string) => ({
  id,
  description: body.description,
  criterium_id: body.criterium_id,
  criterium: criteriumTexts[body.criterium_id - 1],
  value: body.criterium_id === 5 || body.value === undefined || body.value === "" ? null : body.value,
  pick_type: body.pick_type,
  picktypedescription: pickTypeTexts[body.pick_type - 1],
  autostart: body.autostart === true,
  site_id: site
})

const dutchDate = fc.date({
  min: new Date("0001-01-01T00:00:00Z"),
  max: new Date("9999-12-31T00:00:00Z"),
  noInvalidDate: true
}).map((d) => {
  const iso = d.toISOString()
  return `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`
})
const text = fc.fullUnicodeString({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== "" && !s.includes("\0"))
const optional = <A>(arbitrary: fc.Arbitrary<A>) => fc.option(arbitrary, { nil: undefined })

const validBody: fc.Arbitrary<Body> = fc.integer({ min: 1, max: 8 }).chain((criterium_id) =>
  fc.record({
    description: text,
    criterium_id: fc.constant(criterium_id),
    value: criterium_id === 5
      ? optional(fc.oneof(fc.constant(null), fc.string({ maxLength: 6 })))
      : criterium_id === 3 || criterium_id === 7
      ? dutchDate
      : text,
    pick_type: fc.integer({ min: 1, max: 4 }),
    autostart: optional(fc.oneof(fc.boolean(), fc.constant(null)))
  }).map((body) => {
    const { autostart, value, ...rest } = body
    return { ...rest, ...(value === undefined ? {} : { value }), ...(autostart === undefined ? {} : { autostart }) }
  })
)

// ---- Fuzzed bodies ---------------------------------------------------------------------------

const junkValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.fullUnicodeString({ maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("", " ", "\u0000", "1", "3", "29-02-2023", "29-02-2024", "2024-02-29", "31-04-2024", "00-01-0000"),
  fc.constantFrom(0, -1, 1, 3, 4, 5, 7, 8, 9, 1.5, 2 ** 31, 1e308, Number.MAX_SAFE_INTEGER),
  fc.constant("x".repeat(100_000)),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.object({ maxDepth: 2 })
)

const removed = Symbol("removed")
const fields = ["description", "criterium_id", "value", "pick_type", "autostart"]

const junkBody = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(
      validBody,
      fc.array(fc.tuple(fc.constantFrom(...fields), fc.oneof(junkValue, fc.constant(removed))), {
        minLength: 1,
        maxLength: 3
      }),
      fc.dictionary(fc.string({ maxLength: 8 }), junkValue, { maxKeys: 2 })
    ).map(([valid, changes, extra]) => {
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

const idsOf = (caller: Caller) =>
  Effect.map(caller.get("/wave-definitions"), (response) => response.body.map((d: { id: number }) => d.id))

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`wave definitions on ${label}`, (it) => {
    it.effect("POST /wave-definitions creates a definition of the site; the list and GET /:id show it", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const body = { description: "Alles per order", criterium_id: 5, pick_type: 1 }
        expect204(yield* t.P.post("/wave-definitions", body))
        expect204(
          yield* t.P.post("/wave-definitions", {
            description: "Datum",
            criterium_id: 3,
            value: "29-02-2024",
            pick_type: 2,
            autostart: true,
            id: 99,
            site_id: "elsewhere",
            criterium: "Stolen"
          })
        )
        const list = yield* t.P.get("/wave-definitions")
        assert.strictEqual(list.status, 200)
        const [all, dated] = list.body
        assert.deepStrictEqual(
          Object.keys(all),
          [
            "id",
            "description",
            "criterium_id",
            "criterium",
            "value",
            "pick_type",
            "picktypedescription",
            "autostart",
            "site_id"
          ]
        )
        assert.deepStrictEqual(list.body, [
          {
            id: all.id,
            description: "Alles per order",
            criterium_id: 5,
            criterium: "Alles",
            value: null,
            pick_type: 1,
            picktypedescription: "Per order",
            autostart: false,
            site_id: t.p
          },
          {
            id: dated.id,
            description: "Datum",
            criterium_id: 3,
            criterium: "Order - Datum",
            value: "29-02-2024",
            pick_type: 2,
            picktypedescription: "Per wave",
            autostart: true,
            site_id: t.p
          }
        ])
        assert.notStrictEqual(dated.id, 99)
        const one = yield* t.P.get(`/wave-definitions/${dated.id}`)
        assert.deepStrictEqual([one.status, one.body], [200, dated])
        assert.deepStrictEqual((yield* t.P.get("/wave-definitions?limit=1")).body, [all])
        assert.deepStrictEqual((yield* t.P.get("/wave-definitions?limit=5&offset=1")).body, [dated])
        assert.deepStrictEqual((yield* t.P.get("/wave-definitions?offset=2")).body, [])
        expectError(
          yield* t.P.get("/wave-definitions?limit=-1"),
          400,
          "Invalid field limit: must be a whole number from 0 to 999999999"
        )
      }))

    it.effect("criterium and picktypedescription are the documented texts of every id", () =>
      Effect.gen(function*() {
        assert.deepStrictEqual(Object.values(criteria), criteriumTexts)
        assert.deepStrictEqual(Object.values(pickTypes), pickTypeTexts)
        criteriumTexts.forEach((text, i) => assert.strictEqual(criteriumDescription(i + 1), text))
        pickTypeTexts.forEach((text, i) => assert.strictEqual(pickTypeDescription(i + 1), text))
        const t = yield* makeTenants
        for (let criterium = 1; criterium <= 8; criterium++) {
          const value = criterium === 3 || criterium === 7 ? "01-12-2026" : "x"
          const pick_type = ((criterium - 1) % 4) + 1
          const body = { description: `c${criterium}`, criterium_id: criterium, value, pick_type }
          expect204(yield* t.P.post("/wave-definitions", body))
        }
        const list = (yield* t.P.get("/wave-definitions")).body
        assert.deepStrictEqual(
          list.map((d: { criterium_id: number; criterium: string }) => [d.criterium_id, d.criterium]),
          criteriumTexts.map((text, i) => [i + 1, text])
        )
        assert.deepStrictEqual(
          list.map((d: { pick_type: number; picktypedescription: string }) => [d.pick_type, d.picktypedescription]),
          [...pickTypeTexts, ...pickTypeTexts].map((text, i) => [(i % 4) + 1, text])
        )
      }))

    it.effect("POST /wave-definitions: a missing, blank or mistyped field is a 400 naming it, and writes nothing", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const valid = { description: "D", criterium_id: 1, value: "Jansen", pick_type: 1 }
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ ...valid, description: undefined }, "Missing field description"],
          [{ ...valid, description: "  " }, "Invalid field description: must not be empty"],
          [{ ...valid, criterium_id: undefined }, "Missing field criterium_id"],
          [{ ...valid, pick_type: undefined }, "Missing field pick_type"],
          ...[0, 9, -1, 1.5, "1", null, true].map((c) =>
            [
              { ...valid, criterium_id: c },
              "Invalid field criterium_id: must be an integer from 1 to 8"
            ] as const
          ),
          ...[0, 5, 2.5, "2", null].map((p) =>
            [
              { ...valid, pick_type: p },
              "Invalid field pick_type: must be an integer from 1 to 4"
            ] as const
          ),
          [{ ...valid, autostart: "yes" }, "Invalid field autostart: Expected boolean, actual \"yes\""],
          [{ ...valid, value: 7 }, "Invalid field value: Expected string, actual 7"],
          [{ ...valid, value: "a\u0000b" }, "Invalid field value: must not contain NUL characters"],
          [[valid], "Request body must be a JSON object"]
        ]
        for (const [body, message] of cases) expectError(yield* t.P.post("/wave-definitions", body), 400, message)
        assert.deepStrictEqual((yield* t.P.get("/wave-definitions")).body, [])
      }))

    it.effect("the value follows the criterion: a real DD-MM-YYYY date for 3 and 7, none for 5, text for others", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const post = (criterium_id: number, value: unknown) =>
          t.P.post("/wave-definitions", { description: "D", criterium_id, value, pick_type: 1 })
        for (const criterium of [3, 7]) {
          for (const value of ["31-02-2024", "29-02-2023", "2024-02-29", "1-2-2024", "01-13-2024", "00-01-2024", "x"]) {
            expectError(yield* post(criterium, value), 400, "Invalid field value: must be a date DD-MM-YYYY")
          }
        }
        for (const criterium of [1, 2, 3, 4, 6, 7, 8]) {
          for (const value of [undefined, null, "", "   "]) {
            const message = `Invalid field value: is required for criterium ${criterium}`
            expectError(yield* post(criterium, value), 400, message)
          }
        }
        assert.deepStrictEqual((yield* t.P.get("/wave-definitions")).body, [])
        expect204(yield* post(5, "ignored"))
        expect204(yield* post(7, "29-02-2024"))
        expect204(yield* post(6, " Den Haag "))
        const values = (yield* t.P.get("/wave-definitions")).body.map((d: { value: string | null }) => d.value)
        assert.deepStrictEqual(values, [null, "29-02-2024", " Den Haag "])
        assert.strictEqual(calendarDateOfDutchDate("29-02-2024"), "2024-02-29")
        assert.strictEqual(calendarDateOfDutchDate("29-02-2100"), null)
        assert.strictEqual(calendarDateOfDutchDate("01-01-0000"), null)
      }))

    it.effect("PUT /wave-definitions/:id replaces every writable field: an absent value is null, autostart false", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(
          yield* t.P.post("/wave-definitions", {
            description: "Klant",
            criterium_id: 1,
            value: "Jansen",
            pick_type: 3,
            autostart: true
          })
        )
        const id = yield* lastId(t.P, "/wave-definitions")
        expect204(yield* t.P.put(`/wave-definitions/${id}`, { description: "Alles", criterium_id: 5, pick_type: 4 }))
        assert.deepStrictEqual((yield* t.P.get(`/wave-definitions/${id}`)).body, {
          id,
          description: "Alles",
          criterium_id: 5,
          criterium: "Alles",
          value: null,
          pick_type: 4,
          picktypedescription: "Per vervoerder",
          autostart: false,
          site_id: t.p
        })
        expectError(
          yield* t.P.put(`/wave-definitions/${id}`, {
            description: "Datum",
            criterium_id: 7,
            value: "2026-01-01",
            pick_type: 1
          }),
          400,
          "Invalid field value: must be a date DD-MM-YYYY"
        )
        expectError(
          yield* t.P.put(`/wave-definitions/${id}`, { description: "X", criterium_id: 8, pick_type: 5 }),
          400,
          "Invalid field pick_type: must be an integer from 1 to 4"
        )
        assert.strictEqual((yield* t.P.get(`/wave-definitions/${id}`)).body.description, "Alles")
      }))

    it.effect("DELETE /wave-definitions/:id answers 204 and leaves the waves made from it as they were", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/wave-definitions", { description: "Keep", criterium_id: 5, pick_type: 1 }))
        const keep = yield* lastId(t.P, "/wave-definitions")
        expect204(
          yield* t.P.post("/wave-definitions", { description: "Gone", criterium_id: 4, value: "PostNL", pick_type: 4 })
        )
        const gone = yield* lastId(t.P, "/wave-definitions")
        // A wave holds its own copy of criterion, value and pick type, as POST /waves/create writes it.
        const sql = yield* SqlClient.SqlClient
        const wave = { site_id: t.p, client_id: null, status_id: 14, criterium_id: 4, value: "PostNL", pick_type: 4 }
        const [{ id: waveId }] = yield* sql<{ id: number }>`INSERT INTO waves ${
          sql.insert({ ...wave, autostart: 0, created_at: new Date().toISOString(), created_by: "test" })
        } RETURNING id`.pipe(Effect.orDie)
        expect204(yield* t.P.del(`/wave-definitions/${gone}`))
        expectError(yield* t.P.get(`/wave-definitions/${gone}`), 404, notFound(gone))
        expectError(yield* t.P.del(`/wave-definitions/${gone}`), 404, notFound(gone))
        assert.deepStrictEqual(yield* idsOf(t.P), [keep])
        const waves = yield* sql`SELECT site_id, client_id, status_id, criterium_id, value, pick_type FROM waves
          WHERE id = ${waveId}`.pipe(Effect.orDie)
        assert.deepStrictEqual(waves, [wave])
      }))

    it.effect("a missing definition: 404 Wave definitie met id <id> niet gevonden; a non-integer id: 400", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const body = { description: "X", criterium_id: 5, pick_type: 1 }
        expectError(yield* t.P.get("/wave-definitions/424242"), 404, notFound(424242))
        expectError(yield* t.P.put("/wave-definitions/424242", body), 404, notFound(424242))
        expectError(yield* t.P.del("/wave-definitions/424242"), 404, notFound(424242))
        // The body is checked before the record is looked up.
        expectError(
          yield* t.P.put("/wave-definitions/424242", { ...body, criterium_id: 0 }),
          400,
          "Invalid field criterium_id: must be an integer from 1 to 8"
        )
        for (const id of ["x", "2.0", "-3", "0", "99999999999"]) {
          expectError(yield* t.P.get(`/wave-definitions/${id}`), 400, "Invalid field id: must be an integer id")
          expectError(yield* t.P.put(`/wave-definitions/${id}`, body), 400, "Invalid field id: must be an integer id")
          expectError(yield* t.P.del(`/wave-definitions/${id}`), 400, "Invalid field id: must be an integer id")
        }
      }))

    it.effect("definitions belong to the site: every scope of it sees and maintains them, other sites get 404", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const body = { description: "Per client", criterium_id: 8, value: t.f1, pick_type: 1 }
        expect204(yield* t.F1.post("/wave-definitions", body))
        const id = yield* lastId(t.F1, "/wave-definitions")
        for (const scope of [t.F, t.F1, t.F2]) {
          assert.deepStrictEqual(yield* idsOf(scope), [id])
          const one = yield* scope.get(`/wave-definitions/${id}`)
          assert.deepStrictEqual([one.status, one.body.site_id, one.body.value], [200, t.f, t.f1])
        }
        expect204(yield* t.F2.put(`/wave-definitions/${id}`, { description: "By F2", criterium_id: 5, pick_type: 2 }))
        assert.strictEqual((yield* t.F1.get(`/wave-definitions/${id}`)).body.description, "By F2")
        assert.deepStrictEqual(yield* idsOf(t.P), [])
        const stolen = { description: "Stolen", criterium_id: 5, pick_type: 1 }
        expectError(yield* t.P.get(`/wave-definitions/${id}`), 404, notFound(id))
        expectError(yield* t.P.put(`/wave-definitions/${id}`, stolen), 404, notFound(id))
        expectError(yield* t.P.del(`/wave-definitions/${id}`), 404, notFound(id))
        assert.strictEqual((yield* t.F.get(`/wave-definitions/${id}`)).body.description, "By F2")
        expect204(yield* t.F.del(`/wave-definitions/${id}`))
        assert.deepStrictEqual(yield* idsOf(t.F2), [])
      }))

    it.effect("any valid definition, created or put, reads back exactly, in its site only", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const scopes = [
          { caller: t.P, site: t.p },
          { caller: t.F, site: t.f },
          { caller: t.F1, site: t.f },
          { caller: t.F2, site: t.f }
        ]
        yield* checkProperty(
          fc.tuple(validBody, validBody, fc.nat(3), fc.nat(3)),
          ([created, replaced, writer, updater]) =>
            Effect.gen(function*() {
              const { caller, site } = scopes[writer]
              expect204(yield* caller.post("/wave-definitions", created), JSON.stringify(created))
              const id = yield* lastId(caller, "/wave-definitions")
              const readBack = (body: Body) =>
                Effect.gen(function*() {
                  const expected = expectedOf(body, id, site)
                  for (const viewer of scopes) {
                    const one = yield* viewer.caller.get(`/wave-definitions/${id}`)
                    const list = (yield* viewer.caller.get("/wave-definitions")).body as Array<{ id: number }>
                    if (viewer.site === site) {
                      assert.deepStrictEqual([one.status, one.body], [200, expected], JSON.stringify(body))
                      assert.deepStrictEqual(list.find((d) => d.id === id), expected)
                    } else {
                      expectError(one, 404, notFound(id))
                      assert.isUndefined(list.find((d) => d.id === id))
                    }
                  }
                })
              yield* readBack(created)
              const other = scopes[updater]
              const put = yield* other.caller.put(`/wave-definitions/${id}`, replaced)
              if (other.site === site) {
                expect204(put)
                yield* readBack(replaced)
              } else {
                expectError(put, 404, notFound(id))
                yield* readBack(created)
              }
            }),
          25
        )
      }))

    for (const method of ["POST", "PUT"] as const) {
      it.effect(`${method}: fuzzed bodies never answer 5xx, and a 4xx writes nothing`, () =>
        Effect.gen(function*() {
          const t = yield* makeTenants
          const target = { description: "Target", criterium_id: 1, value: "J", pick_type: 1 }
          expect204(yield* t.F.post("/wave-definitions", target))
          const id = yield* lastId(t.F, "/wave-definitions")
          const snapshot = Effect.map(t.F.get("/wave-definitions"), (list) => JSON.stringify(list.body))
          let before = yield* snapshot
          yield* checkProperty(junkBody, (body) =>
            Effect.gen(function*() {
              const response = method === "POST"
                ? yield* t.F1.post("/wave-definitions", body)
                : yield* t.F1.put(`/wave-definitions/${id}`, body)
              const shown = JSON.stringify(body)?.slice(0, 300)
              assert.isBelow(response.status, 500, `${JSON.stringify(response.body)} for ${shown}`)
              const after = yield* snapshot
              if (response.status === 204) {
                const written = method === "POST" ? yield* lastId(t.F, "/wave-definitions") : id
                const record = (yield* t.F.get(`/wave-definitions/${written}`)).body
                assert.deepStrictEqual(record, expectedOf(body as Body, written, t.f), shown)
              } else {
                assert.strictEqual(response.status, 400, shown)
                assert.isString(response.body?.message)
                assert.strictEqual(after, before, `a ${response.status} changed the definitions`)
              }
              before = after
            }), 60)
        }))
    }
  })
}
