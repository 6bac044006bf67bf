import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { insertSku } from "../../../testing/fixtures.js"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"

interface Content {
  readonly content_id: number
  readonly sku_id: string
  readonly loc_id: string
  readonly tag_id: string
  readonly qty: number
  readonly expiry_date: string | null
  readonly client_id: string | null
}

const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 60_000 })(`receiving on ${label}`, (it) => {
    const setUp = (preAdviceId: string, lines: ReadonlyArray<{ sku_id: string; qty: number }>) =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        for (const line of lines) {
          yield* insertSku({ sku_id: line.sku_id, expiry_days: line.sku_id.endsWith("-EXP") ? 10 : null }).pipe(
            Effect.catchAllDefect(() => Effect.void)
          )
        }
        const created = yield* api.request("POST", "/preadvices", {
          token,
          site: "main",
          body: { pre_advice_id: preAdviceId, lines }
        })
        assert.strictEqual(created.status, 204, JSON.stringify(created.body))
        return { api, token }
      })

    const contentsOf = (api: Api["Type"], token: string, skuIds: ReadonlyArray<string>) =>
      Effect.map(
        api.request("GET", "/inventory/overview", { token, site: "main" }),
        (r) => (r.body as ReadonlyArray<Content>).filter((c) => skuIds.includes(c.sku_id))
      )

    it.effect("without lines every line is received in full, at the receiving location, and the pre-advice is Received", () =>
      Effect.gen(function*() {
        const { api, token } = yield* setUp("PA-FULL", [{ sku_id: "R-1", qty: 5 }, { sku_id: "R-2-EXP", qty: 3 }])
        const response = yield* api.request("POST", "/preadvices/PA-FULL/receive", { token, site: "main", body: {} })
        assert.strictEqual(response.status, 204, JSON.stringify(response.body))
        const contents = yield* contentsOf(api, token, ["R-1", "R-2-EXP"])
        assert.deepStrictEqual(contents.map((c) => [c.sku_id, c.qty, c.loc_id]), [["R-1", 5, "RECEIVING"], [
          "R-2-EXP",
          3,
          "RECEIVING"
        ]])
        assert.strictEqual(contents[0].expiry_date, null)
        assert.strictEqual(contents[1].expiry_date, daysFromToday(10))
        assert.match(contents[0].tag_id, /^T\d{8}$/)
        assert.notStrictEqual(contents[0].tag_id, contents[1].tag_id)

        const preAdvice = yield* api.request("GET", "/preadvices/PA-FULL", { token, site: "main" })
        assert.deepStrictEqual(preAdvice.body.pre_advice_status, { id: 3, description: "Received" })
        assert.deepStrictEqual(preAdvice.body.lines.map((l: { qty_received: number }) => l.qty_received), [5, 3])

        const ledger = yield* api.request("GET", "/inventory/transactions", { token, site: "main" })
        const receipts = ledger.body.filter((t: { content_id: number }) =>
          contents.some((c) => c.content_id === t.content_id)
        )
        assert.deepStrictEqual(
          receipts.map((t: { transaction_type: string; qty: number; line_id: number; notes: string }) => [
            t.transaction_type,
            t.qty,
            t.line_id,
            t.notes
          ]),
          [["Receipt", 5, 1, "PreAdvice PA-FULL"], ["Receipt", 3, 2, "PreAdvice PA-FULL"]]
        )

        const sql = yield* SqlClient.SqlClient
        const events = yield* sql<
          { event_type: string; site_id: string; data: string }
        >`SELECT event_type, site_id, data
          FROM events WHERE event_type = 'preadvice_received'`
        const raised = events.map((e) => JSON.parse(e.data)).filter((d) => d.pre_advice_id === "PA-FULL")
        assert.deepStrictEqual(raised, [preAdvice.body])

        const again = yield* api.request("POST", "/preadvices/PA-FULL/receive", { token, site: "main", body: {} })
        assert.deepStrictEqual([again.status, again.body], [409, {
          message: "PreAdvice with PreAdviceID PA-FULL has nothing left to receive"
        }])
      }))

    it.effect("a partial receipt moves the pre-advice to In Receipt and keeps the given location, tag and expiry", () =>
      Effect.gen(function*() {
        const { api, token } = yield* setUp("PA-PART", [{ sku_id: "R-3", qty: 10 }])
        const response = yield* api.request("POST", "/preadvices/PA-PART/receive", {
          token,
          site: "main",
          body: { lines: [{ line: 1, qty: 4, loc_id: "A-07", tag_id: "PALLET-1", expiry_date: "2031-05-01" }] }
        })
        assert.strictEqual(response.status, 204, JSON.stringify(response.body))
        const [content] = yield* contentsOf(api, token, ["R-3"])
        assert.deepStrictEqual([content.qty, content.loc_id, content.tag_id, content.expiry_date], [
          4,
          "A-07",
          "PALLET-1",
          "2031-05-01"
        ])
        const preAdvice = yield* api.request("GET", "/preadvices/PA-PART", { token, site: "main" })
        assert.deepStrictEqual(preAdvice.body.pre_advice_status, { id: 2, description: "In Receipt" })
        const list = yield* api.request("GET", "/preadvices", { token, site: "main" })
        const item = list.body.find((p: { pre_advice_id: string }) => p.pre_advice_id === "PA-PART")
        assert.strictEqual(item.pre_advice_status_description, "In Receipt")

        const rest = yield* api.request("POST", "/preadvices/PA-PART/receive", { token, site: "main" })
        assert.strictEqual(rest.status, 204)
        const after = yield* api.request("GET", "/preadvices/PA-PART", { token, site: "main" })
        assert.deepStrictEqual(after.body.pre_advice_status, { id: 3, description: "Received" })
        assert.deepStrictEqual((yield* contentsOf(api, token, ["R-3"])).map((c) => c.qty), [4, 6])
      }))

    it.effect("receiving more than expected, an unknown line or a bad date is a 400 naming it; nothing is written", () =>
      Effect.gen(function*() {
        const { api, token } = yield* setUp("PA-BAD", [{ sku_id: "R-4", qty: 2 }])
        const cases: ReadonlyArray<[unknown, string]> = [
          [
            { lines: [{ line: 1, qty: 3 }] },
            "Invalid field lines.0.qty: receiving 3 of line 1 exceeds the 2 still expected"
          ],
          [
            { lines: [{ line: 1, qty: 1 }, { line: 1, qty: 2 }] },
            "Invalid field lines.1.qty: receiving 3 of line 1 exceeds the 2 still expected"
          ],
          [{ lines: [{ line: 9, qty: 1 }] }, "Invalid field lines.0.line: line 9 does not exist"],
          [
            { lines: [{ line: 1, qty: 1, expiry_date: "01-01-2030" }] },
            "Invalid field lines.0.expiry_date: must be a date YYYY-MM-DD"
          ],
          [{ lines: [{ line: 1, qty: 0 }] }, "Invalid field lines.0.qty: must be an integer of at least 1"],
          [{ lines: [{ qty: 1 }] }, "Missing field lines.0.line"]
        ]
        for (const [body, message] of cases) {
          const response = yield* api.request("POST", "/preadvices/PA-BAD/receive", { token, site: "main", body })
          assert.deepStrictEqual([response.status, response.body], [400, { message }], JSON.stringify(body))
        }
        assert.deepStrictEqual(yield* contentsOf(api, token, ["R-4"]), [])
        const preAdvice = yield* api.request("GET", "/preadvices/PA-BAD", { token, site: "main" })
        assert.deepStrictEqual(preAdvice.body.pre_advice_status, { id: 1, description: "Open" })
        const missing = yield* api.request("POST", "/preadvices/NOPE/receive", { token, site: "main", body: {} })
        assert.deepStrictEqual([missing.status, missing.body], [404, {
          message: "PreAdvice with PreAdviceID NOPE not found"
        }])
      }))
  })
}
