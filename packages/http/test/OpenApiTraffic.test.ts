/**
 * The served OpenAPI document agrees with real traffic: every operation is called on one server
 * (SQLite; the storage contract suite holds the stores equal), through a warehouse's whole cycle and
 * then with the failures any operation can meet (no token, an unknown id, a body that is no object,
 * an `Idempotency-Key` reused with another request). Every answer's status must be declared for its
 * operation, its content type among the declared ones, and its JSON body valid against the declared
 * schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses); every body the server accepted must be valid
 * against the declared request body. An operation added later and not called here fails the test.
 */
import { HttpServer } from "@effect/platform"
import { assert, layer } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect, Layer } from "effect"
import { freshSqliteFile } from "../../../testing/databases.js"
import { type Answer, send } from "../../../testing/rawRequest.js"
import { adminEmail, adminPassword, testServer } from "../../../testing/server.js"

type Json = any

type Method = "GET" | "POST" | "PUT" | "DELETE"

interface Operation {
  readonly method: Method
  readonly template: string
  readonly pattern: RegExp
  readonly spec: Json
  readonly pointer: string
}

interface Call {
  readonly token?: string | undefined
  readonly site?: string
  readonly body?: unknown
  readonly rawBody?: string
  readonly contentType?: string
  readonly headers?: Record<string, string>
}

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1")

const operationsOf = (document: Json): ReadonlyArray<Operation> =>
  Object.entries<Json>(document.paths).flatMap(([template, byMethod]) =>
    Object.entries<Json>(byMethod).map(([method, spec]) => ({
      method: method.toUpperCase() as Method,
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
      spec,
      pointer: `openapi#/paths/${escapePointer(template)}/${method}`
    }))
  ).sort((a, b) => a.template.split("{").length - b.template.split("{").length)

const mediaTypeOf = (contentType: string | Array<string> | undefined) =>
  String(contentType ?? "").split(";", 1)[0].trim().toLowerCase()

const server = Layer.unwrapScoped(
  Effect.map(freshSqliteFile, (file) => testServer(`sqlite:${file}`, { webhookAllowPrivate: true }))
)

layer(server, { timeout: 120_000, excludeTestServices: true })("the OpenAPI document", (it) => {
  it.effect("declares every status, content type and body real traffic gets, on every operation", () =>
    Effect.gen(function*() {
      const { address } = yield* HttpServer.HttpServer
      if (address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
      const port = address.port
      const raw = (method: Method, path: string, call: Call = {}) => {
        const headers: Record<string, string> = { site: call.site ?? "main", ...call.headers }
        if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`
        const body = call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body))
        if (body !== undefined) headers["content-type"] = call.contentType ?? "application/json"
        return Effect.orDie(send("127.0.0.1", port, { method, path, headers, body }))
      }

      const document: Json = JSON.parse((yield* raw("GET", "/openapi.json")).text)
      const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true })
      ajv.addSchema(document, "openapi")
      const operations = operationsOf(document)
      const called = new Map<Operation, Set<number>>(operations.map((operation) => [operation, new Set()]))

      const operationOf = (method: Method, path: string) => {
        const bare = path.split("?", 1)[0]
        const operation = operations.find((candidate) => candidate.method === method && candidate.pattern.test(bare))
        if (operation === undefined) throw new Error(`${method} ${path} is no operation of the document`)
        return operation
      }

      const validate = (pointer: string, value: unknown, what: string) => {
        const validator = ajv.getSchema(pointer)
        if (validator === undefined) throw new Error(`no schema at ${pointer}`)
        assert.isTrue(validator(value), `${what}: ${ajv.errorsText(validator.errors)}: ${JSON.stringify(value)}`)
      }

      /** The answer to a request, checked against what the document declares of its operation. */
      const call = (method: Method, path: string, options: Call = {}) =>
        Effect.map(raw(method, path, options), (answer: Answer) => {
          const operation = operationOf(method, path)
          const route = `${method} ${path} (${operation.template}) ${answer.status}`
          called.get(operation)!.add(answer.status)
          const declared = operation.spec.responses[String(answer.status)]
          assert.isDefined(declared, `${route} is not declared: ${answer.text}`)
          const mediaType = mediaTypeOf(answer.headers["content-type"])
          if (declared.content === undefined) {
            assert.strictEqual(answer.text, "", `${route} declares no body`)
          } else {
            assert.include(Object.keys(declared.content), mediaType, `${route}: content type`)
            if (mediaType === "application/json") {
              validate(
                `${operation.pointer}/responses/${answer.status}/content/application~1json/schema`,
                JSON.parse(answer.text),
                route
              )
            }
          }
          const sent = options.rawBody ?? options.body
          if (answer.status < 300 && operation.spec.requestBody !== undefined) {
            if (sent === undefined) {
              assert.isFalse(operation.spec.requestBody.required, `${route}: no body, but one is required`)
            } else if (options.rawBody === undefined) {
              validate(`${operation.pointer}/requestBody/content/application~1json/schema`, sent, `${route} request`)
            }
          }
          return answer
        })
      const json = (answer: Answer): Json => JSON.parse(answer.text)
      const ok = (answer: Answer) => {
        assert.isBelow(answer.status, 300, answer.text)
        return answer
      }

      // Sign in, and a second admin who changes its password.
      const login = (email: string, password: string) =>
        Effect.map(call("POST", "/login", { body: { email, password } }), (answer) => json(ok(answer)).token as string)
      const token = yield* login(adminEmail, adminPassword)
      const as = (body?: unknown): Call => ({ token, body })
      const okCall = (method: Method, path: string, body?: unknown) => Effect.map(call(method, path, as(body)), ok)
      const idOf = (path: string, field = "id") =>
        Effect.map(okCall("GET", path), (answer) => json(answer).at(-1)[field] as number | string)

      yield* okCall("GET", "/health")
      yield* okCall("GET", "/ready")
      yield* okCall("GET", "/verifytoken")
      yield* okCall("GET", "/sites")
      yield* okCall("POST", "/sites", { site_id: "north", name: "North", fulfillment: true })
      yield* okCall("GET", "/sites/main/settings")
      yield* okCall("PUT", "/sites/main/settings", { reallocate_short_picks: false })
      yield* Effect.map(
        call("POST", "/clients", { token, site: "north", body: { client_id: "acme", name: "Acme" } }),
        ok
      )
      yield* Effect.map(call("GET", "/clients", { token, site: "north" }), ok)
      yield* okCall("POST", "/users", {
        email: "ann@example.com",
        password: "ann-password-1",
        name: "Ann",
        site: "main"
      })
      const ann = yield* idOf("/users", "userId")
      yield* okCall("PUT", `/users/${ann}`, { name: "Ann B" })
      const annToken = yield* login("ann@example.com", "ann-password-1")
      yield* Effect.map(
        call("POST", "/users/me/password", {
          token: annToken,
          body: { current_password: "ann-password-1", new_password: "ann-password-2" }
        }),
        ok
      )
      yield* okCall("DELETE", `/users/${ann}`)

      // Master data: each create, read, list, update and delete.
      for (const kind of ["customers", "suppliers", "carriers"] as const) {
        yield* okCall("POST", `/${kind}`, { name: `Kept ${kind}`, town: kind === "carriers" ? null : "Town" })
        yield* okCall("POST", `/${kind}`, { name: `Gone ${kind}` })
        const gone = yield* idOf(`/${kind}`)
        yield* okCall("GET", `/${kind}/${gone}`)
        yield* okCall("PUT", `/${kind}/${gone}`, { name: `Renamed ${kind}` })
        yield* okCall("DELETE", `/${kind}/${gone}`)
      }
      const customer = (yield* Effect.map(okCall("GET", "/customers"), json))[0].id
      const supplier = (yield* Effect.map(okCall("GET", "/suppliers"), json))[0].id
      const carrier = (yield* Effect.map(okCall("GET", "/carriers"), json))[0].id
      yield* okCall("POST", "/skugroups", { description: "Drinks" })
      const group = yield* idOf("/skugroups", "sku_group_id")
      yield* okCall("GET", `/skugroups/${group}`)
      yield* okCall("PUT", `/skugroups/${group}`, { description: "Cold drinks" })
      yield* okCall("POST", "/skugroups", { description: "Gone" })
      yield* okCall("DELETE", `/skugroups/${yield* idOf("/skugroups", "sku_group_id")}`)
      yield* okCall("GET", "/pickmethods")
      yield* okCall("POST", "/skus", {
        sku_id: "JUICE",
        description: "Apple juice",
        sku_group: group,
        each_weight: 1.5
      })
      yield* okCall("GET", "/skus")
      yield* okCall("GET", "/skus/JUICE")
      yield* okCall("PUT", "/skus/JUICE", { description: "Apple juice 1 l", qty_on_full_pallet: 48 })

      // Locations, receipt and putaway.
      for (const [loc_id, loc_type] of [["A-01", "Storage"], ["B-01", "Storage"], ["PF-1", "PickFace"]] as const) {
        yield* okCall("POST", "/locations", { loc_id, loc_type, zone: "A" })
      }
      yield* okCall("POST", "/locations", { loc_id: "GONE", loc_type: "Storage" })
      yield* okCall("GET", "/locations?zone=A")
      yield* okCall("GET", "/locations/A-01")
      yield* okCall("PUT", "/locations/GONE", { loc_type: "Storage", description: "Soon gone" })
      yield* okCall("DELETE", "/locations/GONE")
      yield* okCall("POST", "/preadvices", { pre_advice_id: "PA-1", supplier, lines: [{ sku_id: "JUICE", qty: 24 }] })
      yield* okCall("POST", "/preadvices", { pre_advice_id: "PA-2", lines: [{ sku_id: "JUICE", qty: 5 }] })
      yield* okCall("GET", "/preadvices")
      yield* okCall("GET", "/preadvices/PA-2")
      yield* okCall("PUT", "/preadvices/PA-2", { supplier })
      yield* okCall("POST", "/preadvices/PA-2/lines", [{ sku_id: "JUICE", qty: 2 }])
      yield* okCall("GET", "/preadvices/PA-2/lines")
      yield* okCall("GET", "/preadvices/PA-2/lines/2")
      yield* okCall("PUT", "/preadvices/PA-2/lines/2", { qty: 3 })
      yield* okCall("DELETE", "/preadvices/PA-2/lines/2")
      yield* okCall("DELETE", "/preadvices/PA-2")
      const putaway = json(yield* okCall("POST", "/preadvices/PA-1/receive", { putaway: true })).tasks[0]
      yield* okCall("GET", `/movement-tasks/${putaway}`)
      yield* okCall("POST", `/movement-tasks/${putaway}/confirm`)
      const contents = json(yield* okCall("GET", "/inventory/overview"))
      yield* okCall("GET", `/inventory/overview/${contents[0].content_id}`)
      yield* okCall("POST", "/inventory/adjustments", { sku_id: "JUICE", loc_id: "A-01", qty: 6, reason_code: "Found" })
      const transactions = json(yield* okCall("GET", "/inventory/transactions?limit=50"))
      yield* okCall("GET", `/inventory/transactions/${transactions[0].id}`)
      yield* okCall("GET", "/inventory/lostandfound")

      // An order, waved, picked and shipped.
      yield* okCall("POST", "/orders", {
        order_id: "SO-1",
        customer_id: customer,
        carrier_id: carrier,
        order_date: "2026-11-02",
        ship_dock: "DOCK-1",
        lines: [{ sku_id: "JUICE", qty: 10 }]
      })
      yield* okCall("POST", "/orders", { order_id: "SO-GONE", lines: [{ sku_id: "JUICE", qty: 1 }] })
      yield* okCall("GET", "/orders?lines=false&limit=10&offset=0")
      yield* okCall("GET", "/orders/SO-1")
      yield* okCall("PUT", "/orders/SO-1", { ship_by_date: "2026-12-01" })
      yield* okCall("POST", "/orders/SO-GONE/lines", { sku_id: "JUICE", qty: 2 })
      yield* okCall("GET", "/orders/SO-GONE/lines")
      yield* okCall("GET", "/orders/SO-GONE/lines/2")
      yield* okCall("PUT", "/orders/SO-GONE/lines/2", { sku_id: "JUICE", qty: 3 })
      yield* okCall("DELETE", "/orders/SO-GONE/lines/2")
      yield* okCall("DELETE", "/orders/SO-GONE")
      const definition = { description: "SO-1 only", criterium_id: 2, value: "SO-1", pick_type: 1 }
      yield* okCall("POST", "/wave-definitions", definition)
      const wavedef = yield* idOf("/wave-definitions")
      yield* okCall("GET", `/wave-definitions/${wavedef}`)
      yield* okCall("PUT", `/wave-definitions/${wavedef}`, { ...definition, autostart: false })
      yield* okCall("POST", "/wave-definitions", { ...definition, description: "Gone" })
      yield* okCall("DELETE", `/wave-definitions/${yield* idOf("/wave-definitions")}`)
      const wave = json(yield* okCall("POST", "/waves/create", { wavedef_id: wavedef })).wave_id
      yield* okCall("POST", "/waves/start", { wave_id: wave })
      yield* okCall("GET", "/waves")
      yield* okCall("GET", `/waves/${wave}`)
      yield* okCall("GET", `/waves/${wave}/orders`)
      yield* okCall("GET", `/waves/${wave}/claimsets`)
      yield* okCall("GET", `/waves/${wave}/claims`)
      yield* okCall("GET", `/waves/${wave}/tasks`)
      const task = json(yield* okCall("GET", `/tasks?wave_id=${wave}`))[0].id
      // A short pick: the 2 not found become a lost-and-found item.
      yield* okCall("POST", `/tasks/${task}/confirm`, { qty: 8 })
      // Packed into a carton on a pallet, then shipped by unit.
      yield* okCall("PUT", "/sites/main/settings", { gs1_company_prefix: "0614141" })
      const pallet = json(yield* okCall("POST", "/shipping-units", { order_id: "SO-1", unit_type: "Pallet" })).id
      const carton = json(
        yield* okCall("POST", "/shipping-units", {
          order_id: "SO-1",
          unit_type: "Carton",
          parent_id: pallet,
          lines: [{ order_line: 1, qty: 7 }]
        })
      ).id
      const spare = json(yield* okCall("POST", "/shipping-units", { order_id: "SO-1", unit_type: "Carton" })).id
      yield* okCall("POST", `/shipping-units/${spare}/lines`, { order_line: 1, qty: 1 })
      yield* okCall("DELETE", `/shipping-units/${spare}/lines/1`)
      yield* okCall("DELETE", `/shipping-units/${spare}`)
      yield* okCall("POST", `/shipping-units/${carton}/lines`, { order_line: 1, qty: 1 })
      yield* okCall("POST", `/shipping-units/${carton}/close`)
      yield* okCall("PUT", `/shipping-units/${pallet}`, { tracking_number: "1Z999" })
      yield* okCall("GET", `/shipping-units/${carton}`)
      yield* okCall("GET", "/shipping-units?order_id=SO-1&limit=1")
      yield* okCall("GET", "/orders/SO-1/packing-list")
      yield* okCall("POST", "/orders/SO-1/ship")
      // Goods of the order come back: a return received and closed, another cancelled.
      const rma = json(
        yield* okCall("POST", "/returns", {
          order_id: "SO-1",
          reason_code: "Damaged",
          lines: [{ order_line: 1, qty: 3 }]
        })
      ).return_id
      yield* okCall("POST", `/returns/${rma}/receive`, {
        lines: [{ line: 1, qty: 1, disposition: "Restock" }, { line: 1, qty: 1, disposition: "Scrap" }]
      })
      yield* okCall("GET", "/returns?order_id=SO-1&limit=1")
      yield* okCall("GET", `/returns/${rma}`)
      yield* okCall("POST", `/returns/${rma}/close`)
      const lines = [{ order_line: 1, qty: 1 }]
      yield* okCall("POST", "/returns", { return_id: "RMA-GONE", order_id: "SO-1", reason_code: "Refused", lines })
      yield* okCall("DELETE", "/returns/RMA-GONE")
      yield* okCall("GET", `/inventory/lostandfound/${json(yield* okCall("GET", "/inventory/lostandfound"))[0].id}`)

      // A transfer to another site: shipped into the destination's pre-advice, listed in transit, closed short.
      yield* okCall("POST", "/sites", { site_id: "NORTH", name: "North" })
      for (const site of ["main", "NORTH"]) {
        yield* Effect.map(call("POST", "/skus", { token, site, body: { sku_id: "SODA", description: "Soda" } }), ok)
      }
      yield* okCall("POST", "/inventory/adjustments", { sku_id: "SODA", loc_id: "T-01", tag_id: "SODA-1", qty: 2 })
      yield* okCall("POST", "/orders", { order_id: "TR-1", to_site: "NORTH", lines: [{ sku_id: "SODA", qty: 2 }] })
      yield* okCall("POST", "/wave-definitions", { ...definition, description: "TR-1 only", value: "TR-1" })
      const transferWave = json(
        yield* okCall("POST", "/waves/create", { wavedef_id: yield* idOf("/wave-definitions") })
      )
      yield* okCall("POST", "/waves/start", { wave_id: transferWave.wave_id })
      for (const { id } of json(yield* okCall("GET", `/tasks?wave_id=${transferWave.wave_id}`))) {
        yield* okCall("POST", `/tasks/${id}/confirm`)
      }
      yield* okCall("POST", "/orders/TR-1/ship")
      yield* okCall("GET", "/transfers/in-transit?limit=1")
      const north = (method: Method, path: string, body?: unknown) =>
        Effect.map(call(method, path, { token, site: "NORTH", body }), ok)
      yield* north("POST", "/preadvices/TR-main-TR-1/receive", { lines: [{ line: 1, qty: 1 }] })
      yield* north("POST", "/preadvices/TR-main-TR-1/close", { reason_code: "Damaged" })
      yield* north("GET", "/preadvices/TR-main-TR-1")

      // A wave removed before it starts.
      yield* okCall("POST", "/orders", { order_id: "SO-2", lines: [{ sku_id: "JUICE", qty: 1 }] })
      const second = { ...definition, description: "SO-2 only", value: "SO-2" }
      yield* okCall("POST", "/wave-definitions", second)
      const unstarted = json(yield* okCall("POST", "/waves/create", { wavedef_id: yield* idOf("/wave-definitions") }))
      yield* okCall("DELETE", `/waves/${unstarted.wave_id}`)

      // Moves, pick faces, replenishment and counts.
      const move = json(
        yield* okCall("POST", "/movement-tasks", { sku_id: "JUICE", from_loc_id: "A-01", qty: 2, to_loc_id: "B-01" })
      )
      yield* okCall("GET", "/movement-tasks?status_id=1")
      // A hold on a lot with no stock (nothing else changes), read, listed and released.
      const hold =
        json(yield* okCall("POST", "/holds", { sku_id: "JUICE", tag_id: "NO-SUCH-LOT", reason_code: "QA" })).id
      yield* okCall("GET", "/holds?sku_id=JUICE&limit=1")
      yield* okCall("GET", `/holds/${hold}`)
      yield* okCall("POST", `/holds/${hold}/release`, { notes: "passed" })
      const recall = json(
        yield* okCall("POST", "/recalls", { sku_id: "JUICE", tag_id: "NO-SUCH-LOT", reason_code: "QA" })
      )
      yield* okCall("POST", `/holds/${recall.hold.id}/release`)
      yield* okCall("GET", "/trace?sku_id=JUICE")
      yield* okCall("DELETE", `/movement-tasks/${move.id}`)
      const moved = json(yield* okCall("POST", "/locations/B-01/move-all", { to_loc_id: "A-01" }))
      assert.deepStrictEqual(moved, [])
      yield* okCall("PUT", "/pick-faces/JUICE/PF-1", { min_qty: 2, max_qty: 6 })
      yield* okCall("GET", "/pick-faces")
      yield* okCall("GET", "/pick-faces/JUICE/PF-1")
      const replenished = json(yield* okCall("POST", "/replenishments/run", {}))
      yield* okCall("DELETE", `/movement-tasks/${replenished.tasks[0]}`)
      yield* okCall("DELETE", "/pick-faces/JUICE/PF-1")
      yield* okCall("POST", "/locations", { loc_id: "R-01", loc_type: "Receiving" })
      yield* okCall("POST", "/inventory/adjustments", { sku_id: "JUICE", loc_id: "R-01", qty: 1, reason_code: "Found" })
      const received = json(yield* okCall("GET", "/inventory/overview")).find((c: Json) => c.loc_id === "R-01")
      const planned = json(yield* okCall("POST", "/putaway-tasks", { content_id: received.content_id }))
      for (const { id } of planned) yield* okCall("DELETE", `/movement-tasks/${id}`)
      const count = json(yield* okCall("POST", "/counts", { loc_id: "A-01", assignee: "Ann" }))
      yield* okCall("GET", "/counts")
      yield* okCall("GET", `/counts/${count.id}`)
      yield* okCall("POST", `/counts/${count.id}/release`)
      yield* okCall("POST", `/counts/${count.id}/record`, { lines: [{ sku_id: "JUICE", qty_counted: 3 }] })
      yield* okCall("PUT", "/sites/main/settings", { count_variance_threshold: { percent: 0, units: 0 } })
      const approved = json(yield* okCall("POST", "/counts", { loc_id: "B-01" }))
      yield* okCall("POST", `/counts/${approved.id}/release`)
      yield* okCall("POST", `/counts/${approved.id}/record`, { lines: [{ sku_id: "JUICE", qty_counted: 1 }] })
      yield* okCall("POST", `/counts/${approved.id}/approve`, { reason_code: "Found" })
      const recounted = json(yield* okCall("POST", "/counts", { loc_id: "PF-1" }))
      yield* okCall("POST", `/counts/${recounted.id}/release`)
      yield* okCall("POST", `/counts/${recounted.id}/record`, { lines: [{ sku_id: "JUICE", qty_counted: 1 }] })
      yield* okCall("POST", `/counts/${recounted.id}/recount`)
      yield* okCall("DELETE", `/counts/${recounted.id}`)
      yield* okCall("POST", "/counts/plan")

      // Webhooks, import and export.
      const hook = { event_type: "order_shipped", url: "http://127.0.0.1:9/hook" }
      yield* okCall("POST", "/webhooks", hook)
      const webhook = yield* idOf("/webhooks")
      yield* okCall("GET", `/webhooks/${webhook}`)
      yield* okCall("PUT", `/webhooks/${webhook}`, { ...hook, enabled: false })
      yield* okCall("GET", `/webhooks/${webhook}/deliveries`)
      yield* okCall("DELETE", `/webhooks/${webhook}`)
      yield* Effect.map(
        call("POST", "/import/skus", {
          token,
          rawBody: "sku_id,description\nTEA,Green tea\n",
          contentType: "text/csv"
        }),
        ok
      )
      yield* okCall("GET", "/export/skus")
      yield* okCall("GET", "/export/orders?format=ndjson")

      // The failures any operation can meet.
      for (const operation of operations) {
        const path = operation.template.replace(/\{[^}]+\}/g, "404404")
        if (operation.spec.security.length > 0) yield* call(operation.method, path)
        if (operation.template.includes("{")) yield* call(operation.method, path, as())
        if (operation.spec.requestBody?.content["application/json"] !== undefined) {
          yield* call(operation.method, path, { token, rawBody: "\"text\"" })
        }
        if (operation.spec.parameters?.some((parameter: Json) => parameter.name === "Idempotency-Key")) {
          for (const probe of [1, 2]) {
            const answer = yield* call(operation.method, path, {
              token,
              body: { probe },
              headers: { "idempotency-key": `probe-${operation.method}-${operation.template}` }
            })
            if (probe === 2) assert.strictEqual(answer.status, 409, `${operation.template}: ${answer.text}`)
          }
        }
      }

      const uncalled = operations.filter((operation) => ![...called.get(operation)!].some((status) => status < 300))
        .map((operation) => `${operation.method} ${operation.template}`)
      assert.deepStrictEqual(uncalled, [], "operations never answered with success")
    }))
})
