/**
 * Bulk import and export on the real server: CSV and NDJSON of every kind, a report
 * that names each refused row's line, field and the single-record endpoint's message, exactly the
 * valid rows written, each row whole or not at all, and a file larger than the 1 MiB body limit.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api, serverOnApiTestStores, type TestResponse } from "../../../testing/server.js"
import { expect204, expectError, lastId, makeTenants } from "../../../testing/world.js"
import { createNodeServer } from "../src/middleware/BodyLimit.js"

type Tenants = Effect.Effect.Success<typeof makeTenants>

/** POSTs a file to `/import/<kind>` in the scope of `site`. */
const importFile = (
  t: Tenants,
  site: string,
  kind: string,
  body: string,
  contentType = "text/csv",
  headers: Record<string, string> = {}
) =>
  Effect.flatMap(
    Api,
    (api) => api.request("POST", `/import/${kind}`, { token: t.admin, site, rawBody: body, contentType, headers })
  )

/** A file of `/export/<kind>` as text, with its status and headers. */
const exportFile = (t: Tenants, site: string, path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.get(path).pipe(
        HttpClientRequest.bearerToken(t.admin),
        HttpClientRequest.setHeaders({ site, ...headers })
      )
    )
    return { status: response.status, headers: response.headers, text: yield* response.text }
  }).pipe(Effect.scoped, Effect.orDie)

const expectReport = (response: TestResponse, report: unknown) =>
  assert.deepStrictEqual([response.status, response.body], [200, report])

const csv = (...lines: ReadonlyArray<string>) => `${lines.join("\n")}\n`
const ndjson = (...records: ReadonlyArray<unknown>) => records.map((record) => JSON.stringify(record)).join("\n")

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`import and export on ${label}`, (it) => {
    it.effect("a CSV of SKUs writes exactly its valid rows; each refused row has the message POST /skus gives", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const response = yield* importFile(
          t,
          t.p,
          "skus",
          csv(
            "sku_id,description,expiry_sku,expiry_days,each_weight,unknown_column",
            "BOLT,Bolt,false,,0.5,ignored",
            "NUT,,false,,,",
            "WASHER,Washer,true,,,",
            "\"SCREW\",\"Screw, \"\"flat\"\"\",TRUE,30,1e-1,",
            "PIN,Pin,maybe,,,",
            "CLIP,Clip,,,-1,"
          )
        )
        const single = yield* t.P.post("/skus", { sku_id: "NUT", expiry_sku: false })
        expectError(single, 400, "Missing field description")
        expectReport(response, {
          rows: 6,
          written: 2,
          failed: 4,
          errors: [
            { row: 3, field: "description", message: "Missing field description" },
            {
              row: 4,
              field: "expiry_days",
              message: "Invalid field expiry_days: is required when expiry_sku is true"
            },
            { row: 6, field: "expiry_sku", message: "Invalid field expiry_sku: Expected boolean, actual \"maybe\"" },
            { row: 7, field: "each_weight", message: "Invalid field each_weight: must be a number of at least 0" }
          ]
        })
        const skus = (yield* t.P.get("/skus")).body.map((sku: { sku_id: string }) => sku.sku_id)
        assert.deepStrictEqual(skus, ["BOLT", "SCREW"])
        const screw = (yield* t.P.get("/skus/SCREW")).body
        assert.deepInclude(screw, {
          description: "Screw, \"flat\"",
          expiry_sku: true,
          expiry_days: 30,
          each_weight: 0.1
        })
        // A SKU row is PUT /skus/:id: importing it again replaces the record, it does not fail.
        expectReport(yield* importFile(t, t.p, "skus", csv("sku_id,description", "BOLT,Hex bolt")), {
          rows: 1,
          written: 1,
          failed: 0,
          errors: []
        })
        assert.deepInclude((yield* t.P.get("/skus/BOLT")).body, { description: "Hex bolt", each_weight: null })
      }))

    it.effect("an NDJSON line is the body of POST /orders: an order with a bad line writes nothing of it", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "A", description: "A" }))
        const body = ndjson(
          { order_id: "SO-1", lines: [{ sku_id: "A", qty: 2 }, { sku_id: "A", qty: 3 }] },
          { order_id: "SO-2", lines: [{ sku_id: "A", qty: 1 }, { sku_id: "GHOST", qty: 1 }] },
          { order_id: "SO-1" },
          "not an object",
          { order_id: "SO-3", lines: [] }
        ) + "\n\n{\"order_id\": \n"
        const response = yield* importFile(t, t.p, "orders", body, "application/x-ndjson")
        expectError(
          yield* t.P.post("/orders", {
            order_id: "SO-2",
            lines: [{ sku_id: "A", qty: 1 }, { sku_id: "GHOST", qty: 1 }]
          }),
          400,
          "Invalid field lines.1.sku_id: sku GHOST does not exist"
        )
        expectReport(response, {
          rows: 6,
          written: 2,
          failed: 4,
          errors: [
            { row: 2, field: "lines.1.sku_id", message: "Invalid field lines.1.sku_id: sku GHOST does not exist" },
            { row: 3, field: null, message: "Order with OrderID SO-1 already exists" },
            { row: 4, field: null, message: "Row must be a JSON object" },
            { row: 7, field: null, message: "Row is not valid JSON" }
          ]
        })
        const orders = (yield* t.P.get("/orders")).body
        assert.deepStrictEqual(
          orders.map((order: { order_id: string; lines: Array<{ qty: number }> }) => [
            order.order_id,
            order.lines.map((line) => line.qty)
          ]),
          [["SO-1", [2, 3]], ["SO-3", []]]
        )
      }))

    it.effect("a CSV of orders has a row per line; a bad line fails its whole order and names its own row", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "A", description: "A" }))
        expect204(yield* t.P.post("/customers", { name: "Jansen Foods", town: "Utrecht" }))
        const customer = yield* lastId(t.P, "/customers")
        const response = yield* importFile(
          t,
          t.p,
          "orders",
          csv(
            "order_id,customer_id,ship_by_date,lines.sku_id,lines.qty",
            `SO-1,${customer},2030-01-31,A,2`,
            `SO-1,${customer},2030-01-31,A,5`,
            "SO-2,,,A,1",
            "SO-2,,,GHOST,1",
            "SO-2,,,A,4",
            "SO-3,,,,"
          )
        )
        expectReport(response, {
          rows: 6,
          written: 3,
          failed: 3,
          errors: [
            { row: 4, field: null, message: "Not written: row 5, of the same order_id, fails" },
            { row: 5, field: "lines.sku_id", message: "Invalid field lines.1.sku_id: sku GHOST does not exist" },
            { row: 6, field: null, message: "Not written: row 5, of the same order_id, fails" }
          ]
        })
        const one = (yield* t.P.get("/orders/SO-1")).body
        assert.deepStrictEqual(one.customer, { id: customer, name: "Jansen Foods, Utrecht" })
        assert.deepStrictEqual(one.lines.map((line: { line: number; qty: number }) => [line.line, line.qty]), [[1, 2], [
          2,
          5
        ]])
        assert.deepStrictEqual((yield* t.P.get("/orders/SO-3")).body.lines, [])
        assert.strictEqual((yield* t.P.get("/orders/SO-2")).status, 404)
      }))

    it.effect("partners and carriers: a row with an id replaces that record, one without creates one", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expectReport(
          yield* importFile(t, t.p, "customers", csv("name,town", "Jansen Foods,Utrecht", "De Vries,Zwolle")),
          { rows: 2, written: 2, failed: 0, errors: [] }
        )
        const [jansen] = (yield* t.P.get("/customers")).body
        expectReport(
          yield* importFile(t, t.p, "customers", csv("id,name", `${jansen.id},Jansen Foods BV`, "999999,Nobody")),
          {
            rows: 2,
            written: 1,
            failed: 1,
            errors: [{ row: 3, field: null, message: "Customer with id 999999 not found" }]
          }
        )
        assert.deepStrictEqual(
          (yield* t.P.get("/customers")).body.map((c: { name: string; town: string | null }) => [c.name, c.town]),
          [["Jansen Foods BV", null], ["De Vries", "Zwolle"]]
        )
        expectReport(yield* importFile(t, t.p, "suppliers", ndjson({ name: "Acme" }), "application/x-ndjson"), {
          rows: 1,
          written: 1,
          failed: 0,
          errors: []
        })
        expectReport(yield* importFile(t, t.p, "carriers", csv("name,url", "PostNL,https://www.postnl.nl", ",")), {
          rows: 2,
          written: 1,
          failed: 1,
          errors: [{ row: 3, field: "name", message: "Missing field name" }]
        })
        assert.deepStrictEqual((yield* t.P.get("/carriers")).body.map((c: { name: string }) => c.name), ["PostNL"])
      }))

    it.effect("pre-advices with lines and stock adjustments; rows in a client's scope are the client's", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.F1.post("/skus", { sku_id: "A", description: "A" }))
        expectReport(
          yield* importFile(
            t,
            t.f1,
            "preadvices",
            csv("pre_advice_id,lines.sku_id,lines.qty,lines.pallet_id", "PA-1,A,10,P1", "PA-1,A,5,", "PA-2,A,x,")
          ),
          {
            rows: 3,
            written: 2,
            failed: 1,
            errors: [{
              row: 4,
              field: "lines.qty",
              message: "Invalid field lines.0.qty: Expected number, actual \"x\""
            }]
          }
        )
        const preAdvice = (yield* t.F1.get("/preadvices/PA-1")).body
        assert.strictEqual(preAdvice.client_id, t.f1)
        assert.deepStrictEqual(
          preAdvice.lines.map((line: { qty: number; pallet_id: string | null }) => [line.qty, line.pallet_id]),
          [[10, "P1"], [5, null]]
        )
        expectReport(
          yield* importFile(
            t,
            t.f1,
            "stock",
            csv("sku_id,loc_id,tag_id,qty", "A,A-01,T1,7", "A,A-01,T1,3", "A,A-02,,-1", "B,A-01,,1")
          ),
          {
            rows: 4,
            written: 2,
            failed: 2,
            errors: [
              {
                row: 4,
                field: "tag_id",
                message: "Invalid field tag_id: a negative adjustment needs an existing content: none of SKU A at A-02"
              },
              { row: 5, field: "sku_id", message: "Invalid field sku_id: SKU B does not exist" }
            ]
          }
        )
        const stock = (yield* t.F1.get("/inventory/overview")).body
        assert.deepStrictEqual(stock.map((c: { loc_id: string; qty: number }) => [c.loc_id, c.qty]), [["A-01", 10]])
        // Another client's scope sees none of it.
        assert.deepStrictEqual((yield* t.F2.get("/preadvices")).body, [])
      }))

    it.effect("an export is CSV or NDJSON by format or Accept, as GET shows the records; a CSV imports again", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(
          yield* t.P.post("/skus", { sku_id: "A", description: "Apple, red", expiry_sku: true, expiry_days: 7 })
        )
        expect204(yield* t.P.post("/skus", { sku_id: "B", description: "Banana", each_weight: 0.2 }))
        const exported = yield* exportFile(t, t.p, "/export/skus")
        assert.strictEqual(exported.status, 200)
        assert.strictEqual(exported.headers["content-type"], "text/csv; charset=utf-8")
        assert.strictEqual(exported.headers["content-disposition"], "attachment; filename=\"skus.csv\"")
        const [header, ...rows] = exported.text.trimEnd().split("\n")
        assert.strictEqual(
          header,
          "sku_id,client_id,description,ean,sku_group,expiry_sku,expiry_days,obsolete,new,each_width,each_height," +
            "each_depth,each_weight,each_volume,each_value,preferred_putaway_location,qty_on_full_pallet," +
            "default_receipt_quantity,pick_method"
        )
        assert.deepStrictEqual(rows, [
          "A,,\"Apple, red\",,,true,7,false,true,,,,,,,,,,1",
          "B,,Banana,,,false,,false,true,,,,0.2,,,,,,1"
        ])
        const ndjsonByAccept = yield* exportFile(t, t.p, "/export/skus", { accept: "application/x-ndjson" })
        assert.strictEqual(ndjsonByAccept.headers["content-type"], "application/x-ndjson")
        const records = ndjsonByAccept.text.trimEnd().split("\n").map((line) => JSON.parse(line))
        assert.deepStrictEqual(records, [(yield* t.P.get("/skus/A")).body, (yield* t.P.get("/skus/B")).body])
        const byFormat = yield* exportFile(t, t.p, "/export/skus?format=ndjson", { accept: "text/csv" })
        assert.strictEqual(byFormat.text, ndjsonByAccept.text)
        // The export imported into another site gives the same records there.
        expectReport(yield* importFile(t, t.f, "skus", exported.text), { rows: 2, written: 2, failed: 0, errors: [] })
        assert.deepStrictEqual((yield* t.F.get("/skus/A")).body, (yield* t.P.get("/skus/A")).body)
        assert.deepStrictEqual((yield* t.F.get("/skus/B")).body, (yield* t.P.get("/skus/B")).body)
      }))

    it.effect("an order exports as a row per line with its header repeated, or one row without lines", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "A", description: "A" }))
        expect204(
          yield* t.P.post("/orders", { order_id: "SO-1", lines: [{ sku_id: "A", qty: 2 }, { sku_id: "A", qty: 1 }] })
        )
        expect204(yield* t.P.post("/orders", { order_id: "SO-2", ship_dock: "D1" }))
        const exported = yield* exportFile(t, t.p, "/export/orders")
        const [header, ...rows] = exported.text.trimEnd().split("\n")
        const columns = header.split(",")
        assert.includeMembers(columns, ["order_id", "customer.id", "order_status.id", "lines.line", "lines.sku_id"])
        const at = (row: string, column: string) => row.split(",")[columns.indexOf(column)]
        assert.deepStrictEqual(rows.map((row) => [at(row, "order_id"), at(row, "lines.line"), at(row, "lines.qty")]), [
          ["SO-1", "1", "2"],
          ["SO-1", "2", "1"],
          ["SO-2", "", ""]
        ])
        assert.strictEqual(at(rows[2], "ship_dock"), "D1")
        // Into another site, the orders come back with their lines.
        expect204(yield* t.F.post("/skus", { sku_id: "A", description: "A" }))
        expectReport(yield* importFile(t, t.f, "orders", exported.text), { rows: 3, written: 3, failed: 0, errors: [] })
        assert.deepStrictEqual(
          (yield* t.F.get("/orders/SO-1")).body.lines.map((line: { qty: number }) => line.qty),
          [2, 1]
        )
      }))

    it.effect("holds: imported as POST /holds makes them, exported Active then Released as GET /holds/:id shows them", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "H", description: "H" }))
        const file = [
          JSON.stringify({ sku_id: "H", tag_id: "LOT-1", reason_code: "QA" }),
          JSON.stringify({ loc_id: "DAMAGED", reason_code: "Damaged", notes: "leak" }),
          JSON.stringify({ reason_code: "QA" })
        ].join("\n")
        const report = yield* importFile(t, t.p, "holds", file, "application/x-ndjson")
        assert.deepStrictEqual([report.status, report.body.written, report.body.failed], [200, 2, 1])
        const [first] = (yield* t.P.get("/holds")).body
        expect204(yield* t.P.post(`/holds/${first.id}/release`, {}))
        const exported = yield* exportFile(t, t.p, "/export/holds?format=ndjson")
        const records = exported.text.trim().split("\n").map((line) => JSON.parse(line))
        assert.deepStrictEqual(records.map((hold) => [hold.reason_code, hold.status_id]), [["Damaged", 24], ["QA", 14]])
        assert.deepStrictEqual(records[1], (yield* t.P.get(`/holds/${first.id}`)).body)
      }))

    it.effect("unknown kind 404, another content type 400, Idempotency-Key 400, and the usual 401 and 403", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const api = yield* Api
        const kinds = "the kinds are skus, customers, suppliers, carriers, orders, preadvices, stock, holds, returns"
        expectError(yield* importFile(t, t.p, "widgets", csv("a")), 404, `Unknown kind widgets: ${kinds}`)
        const unknownExport = yield* exportFile(t, t.p, "/export/widgets")
        assert.deepStrictEqual([unknownExport.status, JSON.parse(unknownExport.text)], [404, {
          message: `Unknown kind widgets: ${kinds}`
        }])
        const notFile = "Content-Type must be text/csv or application/x-ndjson"
        expectError(yield* importFile(t, t.p, "skus", "{}", "application/json"), 400, notFile)
        expectError(yield* importFile(t, t.p, "skus", "sku_id", ""), 400, notFile)
        expectError(
          yield* importFile(t, t.p, "skus", csv("sku_id,description", "A,A"), "text/csv", { "idempotency-key": "k1" }),
          400,
          "Idempotency-Key is not taken by an import: its rows are written as they are read"
        )
        expectError(
          yield* api.request("POST", "/import/skus", { rawBody: "x", contentType: "text/csv", site: t.p }),
          401,
          "Missing authorization token"
        )
        expectError(
          yield* api.request("POST", "/import/skus", { token: t.admin, rawBody: "x", contentType: "text/csv" }),
          403,
          "Missing header site"
        )
        const badFormat = yield* exportFile(t, t.p, "/export/skus?format=xml")
        assert.strictEqual(badFormat.status, 400)
        expectError(
          yield* importFile(t, t.p, "skus", csv("sku_id,description,sku_id", "A,A,A")),
          400,
          "The CSV header names the column sku_id twice"
        )
        assert.deepStrictEqual((yield* t.P.get("/skus")).body, [])
      }))

    it.effect("a file that stops being CSV ends the import there; the rows before it stay written", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const response = yield* importFile(
          t,
          t.p,
          "skus",
          "sku_id,description\nA,A\n\nB,\"Two\nlines\"\nC,C,extra\nD,\"never closed\nE,E\n"
        )
        expectReport(response, {
          rows: 4,
          written: 2,
          failed: 2,
          errors: [
            { row: 6, field: null, message: "Row has 3 cells where the header has 2" },
            {
              row: 8,
              field: null,
              message: "Invalid CSV: Quote Not Closed: the parsing is finished with an opening quote at line 8"
            }
          ]
        })
        assert.deepStrictEqual((yield* t.P.get("/skus/B")).body.description, "Two\nlines")
        assert.strictEqual((yield* t.P.get("/skus/C")).status, 404)
      }))

    it.effect("an NDJSON line over 1 MiB ends the import there, and the answer still reaches the client", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const body = ndjson({ sku_id: "A", description: "A" }, { sku_id: "B", description: "x".repeat(1_100_000) }) +
          "\n" + ndjson(...Array.from({ length: 2000 }, (_, i) => ({ sku_id: `C${i}`, description: "C" })))
        expectReport(yield* importFile(t, t.p, "skus", body, "application/x-ndjson"), {
          rows: 2,
          written: 1,
          failed: 1,
          errors: [{ row: 2, field: null, message: "Row is larger than 1 MiB" }]
        })
        assert.deepStrictEqual((yield* t.P.get("/skus")).body.map((sku: { sku_id: string }) => sku.sku_id), ["A"])
      }))

    it.effect("a file over the 1 MiB body limit is read and written whole", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const count = 3000
        const description = "x".repeat(400)
        const lines = Array.from({ length: count }, (_, i) => `S${i},${description}`)
        const body = csv("sku_id,description", ...lines)
        assert.isAbove(body.length, 1024 * 1024)
        expectReport(yield* importFile(t, t.p, "skus", body), { rows: count, written: count, failed: 0, errors: [] })
        assert.strictEqual((yield* t.P.get("/skus")).body.length, count)
      }))
  })
}

describe("the bundled server's request timeout", () => {
  it("is Node's 300 s unless WMS_REQUEST_TIMEOUT_SECONDS says otherwise; 0 lifts it, and headers keep 60 s", () => {
    const server = (requestTimeoutMillis?: number) => {
      const created = createNodeServer(requestTimeoutMillis === undefined ? {} : { requestTimeoutMillis })
      return [created.requestTimeout, created.headersTimeout]
    }
    assert.deepStrictEqual(server(), [300_000, 60_000])
    assert.deepStrictEqual(server(0), [0, 60_000])
    assert.deepStrictEqual(server(3_600_000), [3_600_000, 60_000])
    assert.deepStrictEqual(server(10_000), [10_000, 10_000])
  })
})
