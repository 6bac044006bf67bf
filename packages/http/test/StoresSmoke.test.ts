/**
 * The server on each store, answering alike: the API tests run on SQLite alone (the storage
 * contract suite proves the stores alike below the API), so here one flow through every feature
 * (tenants and users, master data, receiving with putaway, orders, waves, picks, shipping, moves,
 * pick faces, counts, short picks that re-allocate, transfers between sites, imports, webhooks, lists
 * and their windows)
 * runs on a fresh SQLite file and a fresh PostgreSQL database, and every answer must be the same.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { freshPgDatabase, freshSqliteFile } from "../../../testing/databases.js"
import { Api, testServer } from "../../../testing/server.js"

type Method = "GET" | "POST" | "PUT" | "DELETE"

/** Stamps, tokens and generated ids, which differ between any two runs. */
const varying = [
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/,
  /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/,
  /^[\w-]+\.[\w-]+\.[\w-]+$/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
]

/** An answer with what differs between runs replaced by a placeholder. */
const comparable = (value: unknown): unknown => {
  if (typeof value === "string") return varying.some((pattern) => pattern.test(value)) ? "<varies>" : value
  if (Array.isArray(value)) return value.map(comparable)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, comparable(field)]))
  }
  return value
}

/** Every step of the flow with its answer (and the total of a counted list), in order. */
type Transcript = Array<
  { readonly step: string; readonly status: number; readonly total?: string; readonly body: unknown }
>

const flow = Effect.gen(function*() {
  const api = yield* Api
  const transcript: Transcript = []
  const admin = yield* api.login()
  const as = (token: string, site: string) => (method: Method, path: string, body?: unknown) =>
    Effect.map(api.request(method, path, { token, site, body }), (response) => {
      const { body, headers, status } = response
      transcript.push({ step: `${method} ${path} as ${site}`, status, total: headers["x-total-count"], body })
      return response.body
    })
  const main = as(admin, "main")

  // Tenants: a fulfillment site with a client, a user in the client's scope who sees only its own.
  yield* main("POST", "/sites", { site_id: "F", name: "Fulfilment", fulfillment: true })
  const f = as(admin, "F")
  yield* f("POST", "/clients", { client_id: "F1", name: "Client one" })
  const password = "smoke-password"
  yield* main("POST", "/users", { email: "f1@example.com", password, name: "F1 user", site: "F", client: "F1" })
  const login = yield* api.request("POST", "/login", { body: { email: "f1@example.com", password } })
  const f1 = as(login.body.token, "F1")
  yield* f1("POST", "/skus", { sku_id: "F1-SKU", description: "Of F1" })
  yield* f("POST", "/skus", { sku_id: "F-SKU", description: "Of the site" })
  yield* f1("GET", "/skus")
  yield* f("GET", "/skus")
  yield* main("GET", "/users")

  // Master data, with ids whose order differs by bytes and by language, and values in their types.
  for (const sku_id of ["b-2", "B-1", "a-3", "A-4"]) {
    yield* main("POST", "/skus", { sku_id, description: `Article ${sku_id}`, each_weight: 0.25 })
  }
  yield* main("POST", "/skus", { sku_id: "JUICE", description: "Apple juice", expiry_sku: true, expiry_days: 30 })
  yield* main("POST", "/locations", { loc_id: "A-01", loc_type: "Storage", zone: "A", max_tags: 5 })
  yield* main("POST", "/locations", { loc_id: "PF-1", loc_type: "PickFace", zone: "A" })
  yield* main("POST", "/customers", { name: "Jansen Foods", town: "Utrecht" })
  yield* main("POST", "/suppliers", { name: "Orchard" })
  yield* main("POST", "/carriers", { name: "PostNL" })
  yield* main("GET", "/skus")
  yield* main("GET", "/skus?limit=2&offset=1")
  yield* main("GET", "/locations")
  const customer = (yield* main("GET", "/customers")).at(-1).id

  // Receiving with putaway, its task confirmed; stock with an expiry at B-01 by adjustment.
  yield* main("POST", "/preadvices", { pre_advice_id: "PA-1", lines: [{ sku_id: "JUICE", qty: 24 }] })
  const received = yield* main("POST", "/preadvices/PA-1/receive", { putaway: true })
  yield* main("POST", `/movement-tasks/${received.tasks[0]}/confirm`)
  yield* main("POST", "/inventory/adjustments", {
    sku_id: "JUICE",
    loc_id: "B-01",
    tag_id: "T-B",
    expiry_date: "2099-01-31",
    qty: 6,
    reason_code: "Found"
  })
  yield* main("GET", "/preadvices/PA-1")
  yield* main("GET", "/inventory/overview")

  /** An order of `qty` JUICE and a wave definition that selects it by its id; yields the definition's id. */
  const orderToWave = (order_id: string, qty: number) =>
    Effect.gen(function*() {
      const lines = [{ sku_id: "JUICE", qty }]
      yield* main("POST", "/orders", { order_id, customer_id: customer, ship_dock: "DOCK-1", lines })
      yield* main("POST", "/wave-definitions", {
        description: order_id,
        criterium_id: 2,
        value: order_id,
        pick_type: 1
      })
      return (yield* main("GET", "/wave-definitions")).at(-1).id
    })

  // An order waved and started, the wave deleted (its claims released); waved again, picked and shipped.
  const definition = yield* orderToWave("SO-1", 10)
  const deleted = (yield* main("POST", "/waves/create", { wavedef_id: definition })).wave_id
  yield* main("POST", "/waves/start", { wave_id: deleted })
  yield* main("DELETE", `/waves/${deleted}`)
  yield* main("GET", "/inventory/overview")
  const wave = (yield* main("POST", "/waves/create", { wavedef_id: definition })).wave_id
  yield* main("POST", "/waves/start", { wave_id: wave })
  for (const task of yield* main("GET", `/tasks?wave_id=${wave}`)) {
    yield* main("POST", `/tasks/${task.id}/confirm`)
  }
  yield* main("POST", "/orders/SO-1/ship")
  yield* main("GET", "/orders/SO-1")
  yield* main("GET", `/waves/${wave}`)

  // A move, a pick face replenished from storage, a count that applies at once.
  const move = yield* main("POST", "/movement-tasks", {
    sku_id: "JUICE",
    from_loc_id: "A-01",
    qty: 4,
    to_loc_id: "B-01",
    reason: "Restock"
  })
  yield* main("POST", `/movement-tasks/${move.id}/confirm`)
  yield* main("PUT", "/pick-faces/JUICE/PF-1", { min_qty: 2, max_qty: 6 })
  const replenished = yield* main("POST", "/replenishments/run", {})
  for (const task of replenished.tasks) yield* main("POST", `/movement-tasks/${task}/confirm`)
  yield* main("GET", "/pick-faces/JUICE/PF-1")
  const count = yield* main("POST", "/counts", { loc_id: "A-01", assignee: "Ann" })
  yield* main("POST", `/counts/${count.id}/release`)
  yield* main("POST", `/counts/${count.id}/record`, { lines: [{ sku_id: "JUICE", qty_counted: 3 }] })
  yield* main("GET", `/counts/${count.id}`)

  // A short pick that re-allocates in the same transaction, then the order ships in full.
  yield* main("PUT", "/sites/main/settings", { reallocate_short_picks: true })
  const definition2 = yield* orderToWave("SO-2", 6)
  const wave2 = (yield* main("POST", "/waves/create", { wavedef_id: definition2 })).wave_id
  yield* main("POST", "/waves/start", { wave_id: wave2 })
  const tasks = yield* main("GET", `/tasks?wave_id=${wave2}`)
  yield* main("POST", `/tasks/${tasks[0].id}/confirm`, { qty: 1, reason_code: "StockOut" })
  for (const task of yield* main("GET", `/tasks?wave_id=${wave2}`)) {
    if (task.status !== "Completed") yield* main("POST", `/tasks/${task.id}/confirm`)
  }
  yield* main("POST", "/orders/SO-2/ship")
  yield* main("GET", "/orders/SO-2")

  // A transfer to another site: shipped into its In Transit pre-advice, received in part, short-closed.
  yield* main("POST", "/sites", { site_id: "N", name: "North" })
  const north = as(admin, "N")
  yield* north("POST", "/skus", { sku_id: "JUICE", description: "Apple juice", expiry_sku: true, expiry_days: 30 })
  yield* main("POST", "/orders", { order_id: "TR-1", to_site: "N", lines: [{ sku_id: "JUICE", qty: 3 }] })
  yield* main("POST", "/wave-definitions", { description: "TR-1", criterium_id: 2, value: "TR-1", pick_type: 1 })
  const transferWave = (yield* main("POST", "/waves/create", {
    wavedef_id: (yield* main("GET", "/wave-definitions")).at(-1).id
  })).wave_id
  yield* main("POST", "/waves/start", { wave_id: transferWave })
  for (const task of yield* main("GET", `/tasks?wave_id=${transferWave}`)) {
    yield* main("POST", `/tasks/${task.id}/confirm`)
  }
  yield* main("POST", "/orders/TR-1/ship")
  yield* main("GET", "/orders/TR-1")
  yield* main("GET", "/transfers/in-transit")
  yield* north("POST", "/preadvices/TR-main-TR-1/receive", { lines: [{ line: 1, qty: 1 }] })
  yield* north("GET", "/transfers/in-transit?limit=1")
  yield* north("POST", "/preadvices/TR-main-TR-1/close", { reason_code: "Damaged" })
  const closed = yield* north("GET", "/preadvices/TR-main-TR-1")
  assert.deepStrictEqual(
    [
      closed.pre_advice_status.id,
      closed.lines.map((line: { qty_received: number; qty_lost: number }) => [
        line.qty_received,
        line.qty_lost
      ])
    ],
    [20, [[1, 2]]]
  )
  yield* north("GET", "/inventory/overview")

  // An import, a webhook, and the ledger and lists the flow left behind.
  transcript.push({
    step: "POST /import/skus",
    ...yield* Effect.map(
      api.request("POST", "/import/skus", {
        token: admin,
        site: "main",
        rawBody: "sku_id,description\nNUT,Nut\nBOLT,\n",
        contentType: "text/csv"
      }),
      ({ body, status }) => ({ body, status })
    )
  })
  yield* main("POST", "/webhooks", { event_type: "order_shipped", url: "https://example.com/hook", enabled: false })
  yield* main("GET", "/webhooks")
  yield* main("GET", "/inventory/transactions")
  yield* main("GET", "/inventory/transactions?limit=3&offset=2")
  yield* main("GET", "/orders")
  yield* main("GET", "/orders?limit=1&offset=1")
  yield* main("GET", "/movement-tasks")
  yield* main("GET", "/locations/A-01")
  return transcript
})

/** The flow on a fresh server of a database URL. */
const flowOn = (databaseUrl: string) => flow.pipe(Effect.provide(testServer(databaseUrl)))

describe("the server on SQLite and on PostgreSQL", () => {
  it.live("answers one flow through every feature alike", () =>
    Effect.gen(function*() {
      const onSqlite = yield* Effect.flatMap(freshSqliteFile, (file) => flowOn(`sqlite:${file}`))
      const onPostgres = yield* Effect.flatMap(freshPgDatabase, flowOn)
      const shipped = onSqlite.filter(({ step }) => /^GET \/orders\/SO-\d/.test(step))
      assert.deepStrictEqual(shipped.map(({ body }) => (body as any).order_status_description), ["Shipped", "Shipped"])
      assert.isTrue(onSqlite.every(({ status }) => status < 500), JSON.stringify(onSqlite))
      const steps = onSqlite.map(({ step }) => step)
      assert.deepStrictEqual(onPostgres.map(({ step }) => step), steps)
      for (const [i, step] of steps.entries()) {
        assert.deepStrictEqual(comparable(onPostgres[i]), comparable(onSqlite[i]), step)
      }
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
