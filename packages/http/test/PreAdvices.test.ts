import { NodeHttpServer } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { Server } from "@wms/http"
import { Effect, Layer } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"
import { setPreAdviceStatus } from "../../../testing/fixtures.js"
import { Api, apiLayer, serverOnApiTestStores, testConfig } from "../../../testing/server.js"
import { unique } from "../../../testing/world.js"
import { setup, storeSnapshot } from "./PreAdviceSetup.js"

const open = { id: 1, description: "Open" }

const dutchDateTime = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/

/** The instant of a `DD-MM-YYYY HH:mm:ss` text in UTC (the test server's time zone). */
const instantOf = (text: string) => {
  const [, day, month, year, hour, minute, second] = dutchDateTime.exec(text)!
  return Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second))
}

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000, excludeTestServices: true })(`pre-advices on ${label}`, (it) => {
    it.effect("POST /preadvices creates an Open pre-advice; the list item and the record have their own shapes", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        const before = Date.now()
        const created = yield* s.call("POST", "/preadvices", s.f, {
          pre_advice_id: id,
          supplier: s.sup1,
          client_id: s.c1,
          lines: [{ sku_id: s.sku1, qty: 5 }, { sku_id: s.sku1, qty: 2, pallet_id: "PAL-1" }]
        })
        assert.deepStrictEqual([created.status, created.body], [204, undefined])

        const list = yield* s.call("GET", "/preadvices", s.f)
        assert.strictEqual(list.status, 200)
        assert.strictEqual(list.body.length, 1)
        const item = list.body[0]
        assert.deepStrictEqual(Object.keys(item).sort(), [
          "client_id",
          "created_by",
          "creation_datetime",
          "id",
          "pre_advice_id",
          "pre_advice_status",
          "pre_advice_status_description",
          "supplier",
          "supplier_id"
        ])
        assert.isTrue(Number.isInteger(item.id) && item.id >= 1)
        assert.strictEqual(item.pre_advice_id, id)
        assert.strictEqual(item.client_id, s.c1)
        assert.deepStrictEqual(item.pre_advice_status, open)
        assert.strictEqual(item.pre_advice_status_description, "Open")
        assert.deepStrictEqual(item.supplier, { id: s.sup1, name: "Supplier 1" })
        assert.strictEqual(item.supplier_id, s.sup1)
        assert.match(item.creation_datetime, dutchDateTime)
        const instant = instantOf(item.creation_datetime)
        assert.isTrue(instant >= Math.floor(before / 1000) * 1000 && instant <= Date.now(), item.creation_datetime)
        assert.strictEqual(item.created_by, s.userId)

        const single = yield* s.call("GET", `/preadvices/${id}`, s.f)
        assert.strictEqual(single.status, 200)
        assert.deepStrictEqual(Object.keys(single.body).sort(), [
          "client_id",
          "created_by",
          "creation_datetime",
          "lines",
          "pre_advice_id",
          "pre_advice_status",
          "supplier"
        ])
        assert.deepStrictEqual(single.body, {
          pre_advice_id: id,
          client_id: s.c1,
          pre_advice_status: open,
          supplier: { id: s.sup1, name: "Supplier 1" },
          creation_datetime: item.creation_datetime,
          created_by: s.userId,
          lines: [
            { pre_advice_id: id, line: 1, sku_id: s.sku1, qty: 5, qty_received: 0, pallet_id: null, client_id: s.c1 },
            { pre_advice_id: id, line: 2, sku_id: s.sku1, qty: 2, qty_received: 0, pallet_id: "PAL-1", client_id: s.c1 }
          ]
        })
      }))

    it.effect("a pre-advice without supplier, client or lines shows nulls and an empty array", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        assert.strictEqual((yield* s.call("POST", "/preadvices", "main", { pre_advice_id: id })).status, 204)
        const single = yield* s.call("GET", `/preadvices/${id}`, "main")
        assert.deepStrictEqual(
          [single.body.client_id, single.body.supplier, single.body.lines],
          [null, null, []]
        )
        const item = (yield* s.call("GET", "/preadvices", "main")).body.find((p: { pre_advice_id: string }) =>
          p.pre_advice_id === id
        )
        assert.deepStrictEqual([item.client_id, item.supplier, item.supplier_id], [null, null, null])
      }))

    it.effect("a taken pre_advice_id gets 409, also for another client of the site", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        assert.strictEqual((yield* s.call("POST", "/preadvices", s.c1, { pre_advice_id: id })).status, 204)
        for (const site of [s.c1, s.c2, s.f]) {
          const again = yield* s.call("POST", "/preadvices", site, { pre_advice_id: id, lines: [] })
          assert.deepStrictEqual([again.status, again.body], [409, {
            message: `PreAdvice with PreAdviceID ${id} already exists`
          }])
        }
        assert.strictEqual((yield* s.call("POST", "/preadvices", "main", { pre_advice_id: id })).status, 204)
      }))

    it.effect("a missing pre-advice is a 404 on every operation", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("none")
        const notFound = { message: `PreAdvice with PreAdviceID ${id} not found` }
        const line = { sku_id: s.skuF, qty: 1 }
        for (
          const [method, path, body] of [
            ["GET", `/preadvices/${id}`],
            ["PUT", `/preadvices/${id}`, { supplier: null }],
            ["DELETE", `/preadvices/${id}`],
            ["GET", `/preadvices/${id}/lines`],
            ["POST", `/preadvices/${id}/lines`, line],
            ["GET", `/preadvices/${id}/lines/1`],
            ["PUT", `/preadvices/${id}/lines/1`, { qty: 2 }],
            ["DELETE", `/preadvices/${id}/lines/1`]
          ] as const
        ) {
          const response = yield* s.call(method, path, s.f, body)
          assert.deepStrictEqual([method, path, response.status, response.body], [method, path, 404, notFound])
        }
      }))

    it.effect("write bodies are validated field by field, and a refused write changes nothing", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{}, "Missing field pre_advice_id"],
          [{ pre_advice_id: "" }, "Invalid field pre_advice_id: must not be empty"],
          [{ pre_advice_id: "   " }, "Invalid field pre_advice_id: must not be empty"],
          [{ pre_advice_id: "x".repeat(101) }, "Invalid field pre_advice_id: must be at most 100 characters"],
          [{ pre_advice_id: 7 }, "Invalid field pre_advice_id: Expected string, actual 7"],
          [{ pre_advice_id: id, supplier: 999999 }, "Invalid field supplier: supplier 999999 does not exist"],
          [{ pre_advice_id: id, supplier: 3000000000 }, "Invalid field supplier: supplier 3000000000 does not exist"],
          [{ pre_advice_id: id, supplier: s.supM }, `Invalid field supplier: supplier ${s.supM} does not exist`],
          [{ pre_advice_id: id, supplier: 1.5 }, "Invalid field supplier: must be an integer id"],
          [{ pre_advice_id: id, supplier: "1" }, "Invalid field supplier: Expected number, actual \"1\""],
          [
            { pre_advice_id: id, client_id: "nobody" },
            `Invalid field client_id: client nobody does not exist on site ${s.f}`
          ],
          [{ pre_advice_id: id, lines: {} }, "Invalid field lines: must be an array of lines"],
          [{ pre_advice_id: id, lines: [1] }, "Invalid field lines.0: must be an object"],
          [{ pre_advice_id: id, lines: [{ qty: 1 }] }, "Missing field lines.0.sku_id"],
          [{ pre_advice_id: id, lines: [{ sku_id: s.skuF }] }, "Missing field lines.0.qty"],
          [
            { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 0 }] },
            "Invalid field lines.0.qty: must be an integer of at least 1"
          ],
          [
            { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 1.5 }] },
            "Invalid field lines.0.qty: must be an integer of at least 1"
          ],
          [
            { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 2 ** 31 }] },
            "Invalid field lines.0.qty: must be at most 2147483647"
          ],
          [
            { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 1, line: 0 }] },
            "Invalid field lines.0.line: must be an integer from 1 to 2147483647"
          ],
          [
            { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 1 }, { sku_id: "nope", qty: 1 }] },
            "Invalid field lines.1.sku_id: sku nope does not exist"
          ],
          [
            { pre_advice_id: id, lines: [{ sku_id: s.skuM, qty: 1 }] },
            `Invalid field lines.0.sku_id: sku ${s.skuM} does not exist`
          ],
          [
            { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 1, client_id: "nobody" }] },
            `Invalid field lines.0.client_id: client nobody does not exist on site ${s.f}`
          ]
        ]
        const before = yield* storeSnapshot
        for (const [body, message] of cases) {
          const response = yield* s.call("POST", "/preadvices", s.f, body)
          assert.deepStrictEqual([body, response.status, response.body], [body, 400, { message }])
        }
        const duplicateLine = yield* s.call("POST", "/preadvices", s.f, {
          pre_advice_id: id,
          lines: [{ sku_id: s.skuF, qty: 1, line: 3 }, { sku_id: s.skuF, qty: 1, line: 3 }]
        })
        assert.deepStrictEqual([duplicateLine.status, duplicateLine.body], [409, {
          message: `Line 3 of pre-advice ${id} already exists`
        }])
        assert.deepStrictEqual(yield* storeSnapshot, before)
        assert.strictEqual((yield* s.call("GET", `/preadvices/${id}`, s.f)).status, 404)
      }))

    it.effect("unknown and read-only fields in a write body are ignored", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        const response = yield* s.call("POST", "/preadvices", s.f, {
          pre_advice_id: id,
          id: 12345,
          pre_advice_status: { id: 3, description: "Received" },
          status: 3,
          created_by: "someone else",
          creation_datetime: "01-01-2000 00:00:00",
          colour: "blue",
          lines: [{ sku_id: s.skuF, qty: 4, qty_received: 4, pre_advice_id: "other", extra: [1, 2] }]
        })
        assert.strictEqual(response.status, 204)
        const single = (yield* s.call("GET", `/preadvices/${id}`, s.f)).body
        assert.deepStrictEqual(single.pre_advice_status, open)
        assert.strictEqual(single.created_by, s.userId)
        assert.notStrictEqual(single.creation_datetime, "01-01-2000 00:00:00")
        assert.deepStrictEqual(single.lines, [
          { pre_advice_id: id, line: 1, sku_id: s.skuF, qty: 4, qty_received: 0, pallet_id: null, client_id: null }
        ])
        const item = (yield* s.call("GET", "/preadvices", s.f)).body[0]
        assert.notStrictEqual(item.id, 12345)
        const put = yield* s.call("PUT", `/preadvices/${id}/lines/1`, s.f, { qty_received: 4, line: 9, qty: 6 })
        assert.strictEqual(put.status, 204)
        assert.deepStrictEqual((yield* s.call("GET", `/preadvices/${id}/lines/1`, s.f)).body, {
          pre_advice_id: id,
          line: 1,
          sku_id: s.skuF,
          qty: 6,
          qty_received: 0,
          pallet_id: null,
          client_id: null
        })
      }))

    it.effect("PUT /preadvices/:id changes only the fields present", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id, supplier: s.sup1, client_id: s.c1 })
        const get = Effect.map(s.call("GET", `/preadvices/${id}`, s.f), (r) => [r.body.client_id, r.body.supplier])
        assert.strictEqual((yield* s.call("PUT", `/preadvices/${id}`, s.f, {})).status, 204)
        assert.deepStrictEqual(yield* get, [s.c1, { id: s.sup1, name: "Supplier 1" }])
        assert.strictEqual((yield* s.call("PUT", `/preadvices/${id}`, s.f, { supplier: s.supF })).status, 204)
        assert.deepStrictEqual(yield* get, [s.c1, { id: s.supF, name: "Supplier F" }])
        assert.strictEqual((yield* s.call("PUT", `/preadvices/${id}`, s.f, { client_id: s.c2 })).status, 204)
        assert.deepStrictEqual(yield* get, [s.c2, { id: s.supF, name: "Supplier F" }])
        assert.strictEqual((yield* s.call("PUT", `/preadvices/${id}`, s.f, { supplier: null })).status, 204)
        assert.deepStrictEqual(yield* get, [s.c2, null])
        assert.strictEqual(
          (yield* s.call("PUT", `/preadvices/${id}`, s.f, { client_id: null, supplier: s.sup2 })).status,
          204
        )
        assert.deepStrictEqual(yield* get, [null, { id: s.sup2, name: "Supplier 2" }])
        const bad = yield* s.call("PUT", `/preadvices/${id}`, s.f, { supplier: 999999, client_id: s.c1 })
        assert.deepStrictEqual([bad.status, bad.body], [400, {
          message: "Invalid field supplier: supplier 999999 does not exist"
        }])
        const badClient = yield* s.call("PUT", `/preadvices/${id}`, s.f, { supplier: s.sup1, client_id: "nobody" })
        assert.deepStrictEqual([badClient.status, badClient.body], [400, {
          message: `Invalid field client_id: client nobody does not exist on site ${s.f}`
        }])
        assert.deepStrictEqual(yield* get, [null, { id: s.sup2, name: "Supplier 2" }])
      }))

    it.effect("DELETE /preadvices/:id removes the pre-advice and all its lines", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 1 }] })
        const deleted = yield* s.call("DELETE", `/preadvices/${id}`, s.f)
        assert.deepStrictEqual([deleted.status, deleted.body], [204, undefined])
        assert.strictEqual((yield* s.call("GET", `/preadvices/${id}`, s.f)).status, 404)
        assert.deepStrictEqual((yield* s.call("GET", "/preadvices", s.f)).body, [])
        const snapshot = yield* storeSnapshot
        assert.isFalse(snapshot.headers.some((row) => row.pre_advice_id === id))
        yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id })
        assert.deepStrictEqual((yield* s.call("GET", `/preadvices/${id}/lines`, s.f)).body, [])
      }))

    it.effect("lines: add one or many, numbered max + 1; read, change and delete them", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        const path = `/preadvices/${id}/lines`
        yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id, client_id: s.c1 })
        const one = yield* s.call("POST", path, s.f, { sku_id: s.sku1, qty: 3 })
        assert.deepStrictEqual([one.status, one.body], [204, undefined])
        const many = yield* s.call("POST", path, s.f, [
          { sku_id: s.sku1, qty: 1, line: 10 },
          { sku_id: s.sku2, qty: 2, client_id: s.c2, pallet_id: "P2" },
          { sku_id: s.skuF, qty: 7, line: 5 }
        ])
        assert.strictEqual(many.status, 204)
        assert.strictEqual((yield* s.call("POST", path, s.f, [])).status, 204)
        const lines = yield* s.call("GET", path, s.f)
        assert.strictEqual(lines.status, 200)
        assert.deepStrictEqual(lines.body, [
          { pre_advice_id: id, line: 1, sku_id: s.sku1, qty: 3, qty_received: 0, pallet_id: null, client_id: s.c1 },
          { pre_advice_id: id, line: 5, sku_id: s.skuF, qty: 7, qty_received: 0, pallet_id: null, client_id: s.c1 },
          { pre_advice_id: id, line: 10, sku_id: s.sku1, qty: 1, qty_received: 0, pallet_id: null, client_id: s.c1 },
          { pre_advice_id: id, line: 11, sku_id: s.sku2, qty: 2, qty_received: 0, pallet_id: "P2", client_id: s.c2 }
        ])
        assert.deepStrictEqual((yield* s.call("GET", `/preadvices/${id}`, s.f)).body.lines, lines.body)
        const paged = yield* s.call("GET", `${path}?limit=2&offset=1`, s.f)
        assert.deepStrictEqual(paged.body.map((line: { line: number }) => line.line), [5, 10])

        const line = yield* s.call("GET", `${path}/11`, s.f)
        assert.deepStrictEqual([line.status, line.body], [200, lines.body[3]])
        const missing = yield* s.call("GET", `${path}/2`, s.f)
        assert.deepStrictEqual([missing.status, missing.body], [404, {
          message: `Line 2 of pre-advice ${id} not found`
        }])
        for (const bad of ["abc", "1.5", "0", "-1"]) {
          const response = yield* s.call("GET", `${path}/${bad}`, s.f)
          assert.deepStrictEqual([bad, response.status, response.body], [bad, 400, {
            message: "Invalid field line_id: must be an integer id"
          }])
        }

        const put = yield* s.call("PUT", `${path}/11`, s.f, {
          sku_id: s.sku1,
          qty: 9,
          pallet_id: null,
          client_id: null
        })
        assert.deepStrictEqual([put.status, put.body], [204, undefined])
        assert.deepStrictEqual((yield* s.call("GET", `${path}/11`, s.f)).body, {
          pre_advice_id: id,
          line: 11,
          sku_id: s.sku1,
          qty: 9,
          qty_received: 0,
          pallet_id: null,
          client_id: s.c1
        })
        assert.strictEqual((yield* s.call("PUT", `${path}/11`, s.f, { pallet_id: "P9" })).status, 204)
        assert.deepStrictEqual((yield* s.call("GET", `${path}/11`, s.f)).body.pallet_id, "P9")
        assert.deepStrictEqual((yield* s.call("GET", `${path}/11`, s.f)).body.qty, 9)
        const putMissing = yield* s.call("PUT", `${path}/12`, s.f, { qty: 1 })
        assert.deepStrictEqual([putMissing.status, putMissing.body], [404, {
          message: `Line 12 of pre-advice ${id} not found`
        }])
        for (
          const [body, message] of [
            [{ qty: 0 }, "Invalid field qty: must be an integer of at least 1"],
            [{ sku_id: "nope" }, "Invalid field sku_id: sku nope does not exist"],
            [{ sku_id: null }, "Invalid field sku_id: Expected string, actual null"],
            [{ client_id: "nobody" }, `Invalid field client_id: client nobody does not exist on site ${s.f}`]
          ] as const
        ) {
          const response = yield* s.call("PUT", `${path}/11`, s.f, body)
          assert.deepStrictEqual([body, response.status, response.body], [body, 400, { message }])
        }

        const deleted = yield* s.call("DELETE", `${path}/5`, s.f)
        assert.deepStrictEqual([deleted.status, deleted.body], [204, undefined])
        const deletedAgain = yield* s.call("DELETE", `${path}/5`, s.f)
        assert.deepStrictEqual([deletedAgain.status, deletedAgain.body], [404, {
          message: `Line 5 of pre-advice ${id} not found`
        }])
        assert.deepStrictEqual(
          (yield* s.call("GET", path, s.f)).body.map((l: { line: number }) => l.line),
          [1, 10, 11]
        )
      }))

    it.effect("a taken line number gets 409 and the request writes none of its lines", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        const path = `/preadvices/${id}/lines`
        yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 1 }] })
        const before = yield* storeSnapshot
        const taken = yield* s.call("POST", path, s.f, [{ sku_id: s.skuF, qty: 1 }, {
          sku_id: s.skuF,
          qty: 1,
          line: 1
        }])
        assert.deepStrictEqual([taken.status, taken.body], [409, {
          message: `Line 1 of pre-advice ${id} already exists`
        }])
        const twice = yield* s.call("POST", path, s.f, [{ sku_id: s.skuF, qty: 1, line: 4 }, {
          sku_id: s.skuF,
          qty: 1,
          line: 4
        }])
        assert.deepStrictEqual([twice.status, twice.body], [409, {
          message: `Line 4 of pre-advice ${id} already exists`
        }])
        const single = yield* s.call("POST", path, s.f, { sku_id: s.skuF, qty: 1, line: 1 })
        assert.deepStrictEqual([single.status, single.body], [409, {
          message: `Line 1 of pre-advice ${id} already exists`
        }])
        const badLine = yield* s.call("POST", path, s.f, [{ sku_id: s.skuF, qty: 1 }, { sku_id: "nope", qty: 1 }])
        assert.deepStrictEqual([badLine.status, badLine.body], [400, {
          message: "Invalid field 1.sku_id: sku nope does not exist"
        }])
        const badSingle = yield* s.call("POST", path, s.f, { sku_id: "nope", qty: 1 })
        assert.deepStrictEqual([badSingle.status, badSingle.body], [400, {
          message: "Invalid field sku_id: sku nope does not exist"
        }])
        for (
          const [body, message] of [
            [
              [{ sku_id: s.skuF, qty: 1 }, { sku_id: s.skuF, qty: -1 }],
              "Invalid field 1.qty: must be an integer of at least 1"
            ],
            [[{ sku_id: s.skuF, qty: 1 }, { qty: 1 }], "Missing field 1.sku_id"],
            [[{ sku_id: s.skuF, qty: 1 }, 7], "Invalid field 1: must be an object"],
            [{ sku_id: 7, qty: 1 }, "Invalid field sku_id: Expected string, actual 7"],
            [{ sku_id: s.skuF }, "Missing field qty"],
            ["line", "Request body must be a JSON object"]
          ] as const
        ) {
          const response = yield* s.call("POST", path, s.f, body)
          assert.deepStrictEqual([body, response.status, response.body], [body, 400, { message }])
        }
        assert.deepStrictEqual(yield* storeSnapshot, before)
      }))

    it.effect("the last line number generated is 2147483647; after it 409", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        const path = `/preadvices/${id}/lines`
        yield* s.call("POST", "/preadvices", s.f, {
          pre_advice_id: id,
          lines: [{ sku_id: s.skuF, qty: 1, line: 2147483646 }]
        })
        assert.strictEqual((yield* s.call("POST", path, s.f, { sku_id: s.skuF, qty: 1 })).status, 204)
        assert.strictEqual((yield* s.call("GET", `${path}/2147483647`, s.f)).status, 200)
        const full = yield* s.call("POST", path, s.f, { sku_id: s.skuF, qty: 1 })
        assert.deepStrictEqual([full.status, full.body], [409, {
          message: `PreAdvice with PreAdviceID ${id} has no line number left`
        }])
      }))

    it.effect("a pre-advice that is no longer Open refuses changes with 409 and is still readable", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        const path = `/preadvices/${id}`
        yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 1 }] })
        yield* setPreAdviceStatus(s.f, id, 2)
        const before = yield* storeSnapshot
        const prefix = `PreAdvice with PreAdviceID ${id} is In Receipt`
        const lines = `${prefix}: its lines can be changed only while it is Open`
        for (
          const [method, at, body, message] of [
            ["DELETE", path, undefined, `${prefix}: only an Open pre-advice can be deleted`],
            ["PUT", path, { supplier: s.supF }, `${prefix}: only an Open pre-advice can be changed`],
            ["POST", `${path}/lines`, { sku_id: s.skuF, qty: 1 }, lines],
            ["PUT", `${path}/lines/1`, { qty: 2 }, lines],
            ["DELETE", `${path}/lines/1`, undefined, lines]
          ] as const
        ) {
          const response = yield* s.call(method, at, s.f, body)
          assert.deepStrictEqual([method, at, response.status, response.body], [method, at, 409, { message }])
        }
        assert.strictEqual((yield* s.call("DELETE", `${path}/lines/7`, s.f)).status, 404)
        assert.deepStrictEqual(yield* storeSnapshot, before)
        const single = yield* s.call("GET", path, s.f)
        assert.deepStrictEqual(single.body.pre_advice_status, { id: 2, description: "In Receipt" })
        const item = (yield* s.call("GET", "/preadvices", s.f)).body[0]
        assert.deepStrictEqual(
          [item.pre_advice_status, item.pre_advice_status_description],
          [{ id: 2, description: "In Receipt" }, "In Receipt"]
        )
      }))

    it.effect("client_id: the header's owner from the site header or the body, overridden per line", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const fromClient = unique("PA")
        assert.strictEqual(
          (yield* s.call("POST", "/preadvices", s.c1, {
            pre_advice_id: fromClient,
            lines: [{ sku_id: s.sku1, qty: 1 }, { sku_id: s.sku1, qty: 1, client_id: s.c1 }]
          })).status,
          204
        )
        const record = (yield* s.call("GET", `/preadvices/${fromClient}`, s.c1)).body
        assert.deepStrictEqual([record.client_id, record.lines.map((l: { client_id: string }) => l.client_id)], [
          s.c1,
          [s.c1, s.c1]
        ])
        const foreign = yield* s.call("POST", "/preadvices", s.c1, { pre_advice_id: unique("PA"), client_id: s.c2 })
        assert.deepStrictEqual([foreign.status, foreign.body], [400, {
          message: `Invalid field client_id: must be ${s.c1}, the client of the site header`
        }])
        const foreignLine = yield* s.call("POST", `/preadvices/${fromClient}/lines`, s.c1, {
          sku_id: s.sku1,
          qty: 1,
          client_id: s.c2
        })
        assert.deepStrictEqual([foreignLine.status, foreignLine.body], [400, {
          message: `Invalid field client_id: must be ${s.c1}, the client of the site header`
        }])
        const foreignSku = yield* s.call("POST", `/preadvices/${fromClient}/lines`, s.c1, { sku_id: s.sku2, qty: 1 })
        assert.deepStrictEqual([foreignSku.status, foreignSku.body], [400, {
          message: `Invalid field sku_id: sku ${s.sku2} does not exist`
        }])
        const foreignSupplier = yield* s.call("PUT", `/preadvices/${fromClient}`, s.c1, { supplier: s.sup2 })
        assert.deepStrictEqual([foreignSupplier.status, foreignSupplier.body], [400, {
          message: `Invalid field supplier: supplier ${s.sup2} does not exist`
        }])

        const mixed = unique("PA")
        assert.strictEqual(
          (yield* s.call("POST", "/preadvices", s.f, {
            pre_advice_id: mixed,
            client_id: s.c1,
            lines: [{ sku_id: s.sku1, qty: 1 }, { sku_id: s.sku2, qty: 1, client_id: s.c2 }]
          })).status,
          204
        )
        const clients = Effect.map(
          s.call("GET", `/preadvices/${mixed}`, s.f),
          (r) => [r.body.client_id, r.body.lines.map((l: { client_id: string }) => l.client_id)]
        )
        assert.deepStrictEqual(yield* clients, [s.c1, [s.c1, s.c2]])
        yield* s.call("PUT", `/preadvices/${mixed}`, s.f, { client_id: s.c2 })
        assert.deepStrictEqual(yield* clients, [s.c2, [s.c2, s.c2]])
        yield* s.call("PUT", `/preadvices/${mixed}`, s.f, { client_id: null })
        assert.deepStrictEqual(yield* clients, [null, [null, s.c2]])

        const onPlainSite = yield* s.call("POST", "/preadvices", "main", {
          pre_advice_id: unique("PA"),
          client_id: s.c1
        })
        assert.deepStrictEqual([onPlainSite.status, onPlainSite.body], [400, {
          message: `Invalid field client_id: client ${s.c1} does not exist on site main`
        }])
      }))

    it.effect("another site's or client's pre-advice is invisible: 404 on every operation", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        yield* s.call("POST", "/preadvices", s.c1, { pre_advice_id: id, lines: [{ sku_id: s.sku1, qty: 1 }] })
        const before = yield* storeSnapshot
        const notFound = { message: `PreAdvice with PreAdviceID ${id} not found` }
        for (const site of [s.c2, "main"]) {
          const line = { sku_id: site === "main" ? s.skuM : s.sku2, qty: 1 }
          for (
            const [method, path, body] of [
              ["GET", `/preadvices/${id}`],
              ["PUT", `/preadvices/${id}`, {}],
              ["DELETE", `/preadvices/${id}`],
              ["GET", `/preadvices/${id}/lines`],
              ["POST", `/preadvices/${id}/lines`, line],
              ["GET", `/preadvices/${id}/lines/1`],
              ["PUT", `/preadvices/${id}/lines/1`, { qty: 2 }],
              ["DELETE", `/preadvices/${id}/lines/1`]
            ] as const
          ) {
            const response = yield* s.call(method, path, site, body)
            assert.deepStrictEqual([site, method, path, response.status, response.body], [
              site,
              method,
              path,
              404,
              notFound
            ])
          }
          const list = yield* s.call("GET", "/preadvices", site)
          assert.isFalse(list.body.some((p: { pre_advice_id: string }) => p.pre_advice_id === id))
        }
        assert.deepStrictEqual(yield* storeSnapshot, before)
        for (const site of [s.c1, s.f]) {
          assert.strictEqual((yield* s.call("GET", `/preadvices/${id}`, site)).status, 200)
          const list = yield* s.call("GET", "/preadvices", site)
          assert.deepStrictEqual(list.body.map((p: { pre_advice_id: string }) => p.pre_advice_id), [id])
        }
      }))

    it.effect("GET /preadvices lists in creation order and takes limit and offset", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const ids = [unique("PA"), unique("PA"), unique("PA")]
        for (const id of ids) yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id })
        const listed = (query: string) =>
          Effect.map(s.call("GET", `/preadvices${query}`, s.f), (r) =>
            r.body.map((p: { pre_advice_id: string }) => p.pre_advice_id))
        assert.deepStrictEqual(yield* listed(""), ids)
        assert.deepStrictEqual(yield* listed("?limit=2"), ids.slice(0, 2))
        assert.deepStrictEqual(yield* listed("?offset=1"), ids.slice(1))
        assert.deepStrictEqual(yield* listed("?limit=1&offset=2"), ids.slice(2))
        assert.deepStrictEqual(yield* listed("?limit=0"), [])
        const bad = yield* s.call("GET", "/preadvices?limit=-1", s.f)
        assert.deepStrictEqual([bad.status, bad.body], [400, {
          message: "Invalid field limit: must be a whole number from 0 to 999999999"
        }])
      }))

    it.effect("pre-advice ids with spaces and slashes are reachable when encoded in the path", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = `${unique("PA")} a/b`
        assert.strictEqual((yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id })).status, 204)
        const found = yield* s.call("GET", `/preadvices/${encodeURIComponent(id)}`, s.f)
        assert.deepStrictEqual([found.status, found.body.pre_advice_id], [200, id])
      }))

    it.effect("concurrent writes: one create wins, generated line numbers never collide", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        const creates = yield* Effect.all(
          Array.from({ length: 8 }, () => s.call("POST", "/preadvices", s.f, { pre_advice_id: id })),
          { concurrency: "unbounded" }
        )
        assert.sameMembers(creates.map((r) => r.status), [204, 409, 409, 409, 409, 409, 409, 409])
        const adds = yield* Effect.all(
          Array.from({ length: 10 }, (_, i) =>
            s.call("POST", `/preadvices/${id}/lines`, s.f, { sku_id: s.skuF, qty: i + 1 })),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(
          adds.map((r) =>
            r.status
          ),
          Array(10).fill(204)
        )
        const lines = (yield* s.call("GET", `/preadvices/${id}/lines`, s.f)).body
        assert.deepStrictEqual(lines.map((l: { line: number }) => l.line), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        assert.sameMembers(lines.map((l: { qty: number }) => l.qty), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        const racing = yield* Effect.all([
          s.call("DELETE", `/preadvices/${id}`, s.f),
          s.call("POST", `/preadvices/${id}/lines`, s.f, { sku_id: s.skuF, qty: 1 }),
          s.call("DELETE", `/preadvices/${id}`, s.f)
        ], { concurrency: "unbounded" })
        assert.isTrue(racing.every((r) => r.status === 204 || r.status === 404), JSON.stringify(racing))
        assert.strictEqual(racing.filter((r) => r.status === 204 && r.body === undefined).length >= 1, true)
        assert.strictEqual((yield* s.call("GET", `/preadvices/${id}`, s.f)).status, 404)
        const snapshot = yield* storeSnapshot
        const refs = new Set(snapshot.headers.map((h) => h.id))
        assert.isTrue(snapshot.lines.every((l) => refs.has(l.preadvice_ref)))
      }))

    it.effect("texts with NUL characters are refused with 400, in bodies and paths", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const id = unique("PA")
        yield* s.call("POST", "/preadvices", s.f, { pre_advice_id: id, lines: [{ sku_id: s.skuF, qty: 1 }] })
        const before = yield* storeSnapshot
        for (
          const [method, path, body] of [
            ["POST", "/preadvices", { pre_advice_id: "a\u0000b" }],
            ["POST", "/preadvices", { pre_advice_id: unique("PA"), client_id: "c\u0000" }],
            ["POST", `/preadvices/${id}/lines`, { sku_id: "s\u0000", qty: 1 }],
            ["POST", `/preadvices/${id}/lines`, { sku_id: s.skuF, qty: 1, pallet_id: "p\u0000" }],
            ["PUT", `/preadvices/${id}/lines/1`, { pallet_id: "p\u0000" }],
            ["PUT", `/preadvices/${id}`, { client_id: "c\u0000" }],
            ["GET", "/preadvices/a%00b"],
            ["DELETE", "/preadvices/a%00b/lines/1"]
          ] as const
        ) {
          const response = yield* s.call(method, path, s.f, body)
          assert.deepStrictEqual([method, path, response.status], [method, path, 400], JSON.stringify(response.body))
        }
        assert.deepStrictEqual(yield* storeSnapshot, before)
      }))

    it.effect("the pre-advice endpoints need a token and a site header", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const noToken = yield* s.api.request("GET", "/preadvices", { site: s.f })
        assert.deepStrictEqual([noToken.status, noToken.body], [401, { message: "Missing authorization token" }])
        const noSite = yield* s.api.request("POST", "/preadvices", { token: s.token, body: { pre_advice_id: "x" } })
        assert.deepStrictEqual([noSite.status, noSite.body], [403, { message: "Missing header site" }])
      }))
  })
}

// UTC+14 all year: no daylight saving time to blur the comparison.
const kiritimati = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) =>
  apiLayer.pipe(
    Layer.provideMerge(Server.app({ ...testConfig(`sqlite:${filename}`), timeZone: "Pacific/Kiritimati" })),
    Layer.provideMerge(Layer.fresh(NodeHttpServer.layerTest))
  )))

layer(kiritimati, { timeout: 60_000, excludeTestServices: true })("pre-advices in another time zone", (it) => {
  it.effect("creation_datetime is shown in the service's time zone", () =>
    Effect.gen(function*() {
      const api = yield* Api
      const token = yield* api.login()
      const id = unique("PA")
      const before = Date.now()
      assert.strictEqual(
        (yield* api.request("POST", "/preadvices", { token, site: "main", body: { pre_advice_id: id } })).status,
        204
      )
      const shown = (yield* api.request("GET", `/preadvices/${id}`, { token, site: "main" })).body.creation_datetime
      const offset = instantOf(shown) - before
      const fourteenHours = 14 * 3600 * 1000
      assert.isTrue(offset >= fourteenHours - 1000 && offset <= fourteenHours + 10_000, shown)
    }))
})
