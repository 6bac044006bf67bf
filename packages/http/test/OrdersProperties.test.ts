import type { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../testing/properties.js"
import { Api } from "../../../testing/server.js"
import { unique } from "../../../testing/world.js"
import { OrdersWorld, serverWithWorld, type World } from "./OrdersWorld.js"

type Runner = <A>(effect: Effect.Effect<A, never, Api | SqlClient.SqlClient>) => Promise<A>

/** Runs fast-check's async property with the test's services, so one world serves every sample. */
const withRunner = Effect.map(
  Effect.context<Api | SqlClient.SqlClient>(),
  (context): Runner => (effect) => Effect.runPromise(Effect.provide(effect, context))
)

const as = (w: World) => ({ token: w.userP.token, site: w.p })

// ---- The model of one site's orders -------------------------------------------------------

interface LineInput {
  readonly sku: number
  readonly qty: number
  readonly line?: number
}

interface HeaderInput {
  readonly customer?: 0 | 1 | null
  readonly order_date?: string | null
  readonly ship_by_date?: string | null
  readonly carrier?: 0 | null
  readonly ship_dock?: string | null
}

type Operation =
  | {
    readonly _tag: "create"
    readonly order: number
    readonly header: HeaderInput
    readonly lines: ReadonlyArray<LineInput>
  }
  | { readonly _tag: "addLines"; readonly order: number; readonly lines: ReadonlyArray<LineInput> | LineInput }
  | {
    readonly _tag: "updateLine"
    readonly order: number
    readonly line: number
    readonly sku: number
    readonly qty: number
  }
  | { readonly _tag: "deleteLine"; readonly order: number; readonly line: number }
  | { readonly _tag: "updateHeader"; readonly order: number; readonly header: HeaderInput }
  | { readonly _tag: "deleteOrder"; readonly order: number }

interface ModelOrder {
  readonly header: Required<HeaderInput>
  readonly lines: Map<number, { readonly sku: number; readonly qty: number }>
}

const skus = ["SKU-1", "SKU-2", "SKU-3"]
const orderCount = 3

const lineInput: fc.Arbitrary<LineInput> = fc.record({
  sku: fc.integer({ min: 0, max: 2 }),
  qty: fc.integer({ min: 1, max: 5 }),
  line: fc.integer({ min: 1, max: 6 })
}, { requiredKeys: ["sku", "qty"] })

const date = fc.constantFrom("2026-01-31", "2026-02-28", "2024-02-29")

const headerInput: fc.Arbitrary<HeaderInput> = fc.record({
  customer: fc.constantFrom<0 | 1 | null>(0, 1, null),
  order_date: fc.option(date, { nil: null }),
  ship_by_date: fc.option(date, { nil: null }),
  carrier: fc.constantFrom<0 | null>(0, null),
  ship_dock: fc.option(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("", " ", "DOCK ☃")), { nil: null })
}, { requiredKeys: [] })

const order = fc.integer({ min: 0, max: orderCount - 1 })
const lineNumber = fc.integer({ min: 1, max: 7 })

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    _tag: fc.constant("create" as const),
    order,
    header: headerInput,
    lines: fc.array(lineInput, { maxLength: 4 })
  }),
  fc.record({
    _tag: fc.constant("addLines" as const),
    order,
    lines: fc.oneof(lineInput, fc.array(lineInput, { maxLength: 4 }))
  }),
  fc.record({
    _tag: fc.constant("updateLine" as const),
    order,
    line: lineNumber,
    sku: fc.integer({ min: 0, max: 2 }),
    qty: fc.integer({ min: 1, max: 9 })
  }),
  fc.record({ _tag: fc.constant("deleteLine" as const), order, line: lineNumber }),
  fc.record({ _tag: fc.constant("updateHeader" as const), order, header: headerInput }),
  fc.record({ _tag: fc.constant("deleteOrder" as const), order })
)

const blankToNull = (dock: string | null) => (dock === null || dock.trim() === "" ? null : dock)

/** The numbers the model gives `lines` on an order holding `existing`; undefined on a duplicate. */
const modelNumbers = (existing: Iterable<number>, lines: ReadonlyArray<LineInput>) => {
  const used = new Set(existing)
  for (const line of lines) {
    if (line.line === undefined) continue
    if (used.has(line.line)) return undefined
    used.add(line.line)
  }
  let top = Math.max(0, ...used)
  return lines.map((line) => line.line ?? ++top)
}

/** Applies `op` to the model; yields the status the API must answer. */
const applyToModel = (model: Map<number, ModelOrder>, op: Operation): number => {
  const current = model.get(op.order)
  switch (op._tag) {
    case "create": {
      if (current !== undefined) return 409
      const numbers = modelNumbers([], op.lines)
      if (numbers === undefined) return 409
      model.set(op.order, {
        header: {
          customer: op.header.customer ?? null,
          order_date: op.header.order_date ?? null,
          ship_by_date: op.header.ship_by_date ?? null,
          carrier: op.header.carrier ?? null,
          ship_dock: blankToNull(op.header.ship_dock ?? null)
        },
        lines: new Map(op.lines.map((line, i) => [numbers[i], { sku: line.sku, qty: line.qty }]))
      })
      return 204
    }
    case "addLines": {
      if (current === undefined) return 404
      const lines = Array.isArray(op.lines) ? op.lines : [op.lines as LineInput]
      const numbers = modelNumbers(current.lines.keys(), lines)
      if (numbers === undefined) return 409
      lines.forEach((line, i) => current.lines.set(numbers[i], { sku: line.sku, qty: line.qty }))
      return 204
    }
    case "updateLine":
      if (current === undefined || !current.lines.has(op.line)) return 404
      current.lines.set(op.line, { sku: op.sku, qty: op.qty })
      return 204
    case "deleteLine":
      if (current === undefined || !current.lines.has(op.line)) return 404
      current.lines.delete(op.line)
      return 204
    case "updateHeader": {
      if (current === undefined) return 404
      const { ship_dock, ...rest } = op.header
      Object.assign(current.header, rest, ship_dock === undefined ? {} : { ship_dock: blankToNull(ship_dock) })
      return 204
    }
    case "deleteOrder":
      if (current === undefined) return 404
      model.delete(op.order)
      return 204
  }
}

const toWire = (w: World) => {
  const customers = [w.p_customer, w.p_customerNoTown]
  const header = (input: HeaderInput) => {
    const body: Record<string, unknown> = {}
    if (input.customer !== undefined) body.customer_id = input.customer === null ? null : customers[input.customer]
    if (input.carrier !== undefined) body.carrier_id = input.carrier === null ? null : w.p_carrier
    if (input.order_date !== undefined) body.order_date = input.order_date
    if (input.ship_by_date !== undefined) body.ship_by_date = input.ship_by_date
    if (input.ship_dock !== undefined) body.ship_dock = input.ship_dock
    return body
  }
  const line = (input: LineInput) => ({
    sku_id: skus[input.sku],
    qty: input.qty,
    ...(input.line === undefined ? {} : { line: input.line })
  })
  const expected = (orderId: string, order: ModelOrder) => ({
    order_id: orderId,
    client_id: null,
    order_date: order.header.order_date,
    order_status: { id: 14, description: "Released" },
    order_status_description: "Released",
    customer: order.header.customer === null
      ? null
      : { id: customers[order.header.customer], name: ["Acme, Utrecht", "Solo"][order.header.customer] },
    ship_by_date: order.header.ship_by_date,
    carrier: order.header.carrier === null ? null : "PostNL",
    ship_dock: order.header.ship_dock,
    created_by: w.userP.userId,
    order_type: "Customer",
    to_site: null,
    lines: [...order.lines.entries()].sort(([a], [b]) => a - b).map(([n, l]) => ({
      order_id: orderId,
      line: n,
      sku_id: skus[l.sku],
      qty: l.qty,
      qty_picked: 0,
      qty_shipped: 0
    }))
  })
  return { header, line, expected }
}

const send = (w: World, ids: ReadonlyArray<string>, op: Operation) =>
  Effect.gen(function*() {
    const api = yield* Api
    const wire = toWire(w)
    const id = encodeURIComponent(ids[op.order])
    switch (op._tag) {
      case "create":
        return yield* api.request("POST", "/orders", {
          ...as(w),
          body: { order_id: ids[op.order], ...wire.header(op.header), lines: op.lines.map(wire.line) }
        })
      case "addLines":
        return yield* api.request("POST", `/orders/${id}/lines`, {
          ...as(w),
          body: Array.isArray(op.lines) ? op.lines.map(wire.line) : wire.line(op.lines as LineInput)
        })
      case "updateLine":
        return yield* api.request("PUT", `/orders/${id}/lines/${op.line}`, {
          ...as(w),
          body: { sku_id: skus[op.sku], qty: op.qty }
        })
      case "deleteLine":
        return yield* api.request("DELETE", `/orders/${id}/lines/${op.line}`, as(w))
      case "updateHeader":
        return yield* api.request("PUT", `/orders/${id}`, { ...as(w), body: wire.header(op.header) })
      case "deleteOrder":
        return yield* api.request("DELETE", `/orders/${id}`, as(w))
    }
  })

// ---- Fuzzed write bodies ------------------------------------------------------------------

const hugeString = fc.integer({ min: 10_000, max: 300_000 }).chain((n) =>
  fc.constantFrom("x", "é", "\u0000", "☃", " ").map((c) => c.repeat(n))
)

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1.5, 2147483648, 1e300, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 12 }),
  fc.fullUnicodeString({ maxLength: 12 }),
  fc.constantFrom("\uD800", "a\u0000b", "", "   ", "2026-02-30", "1"),
  hugeString,
  fc.anything({ maxDepth: 2, maxKeys: 3 })
)

const validLine = fc.record({
  sku_id: fc.constantFrom(...skus),
  qty: fc.integer({ min: 1, max: 9 }),
  line: fc.integer({ min: 1, max: 9 })
}, { requiredKeys: ["sku_id", "qty"] })

const validHeader = fc.record({
  customer_id: fc.constantFrom(0, 1, null),
  order_date: fc.option(date, { nil: null }),
  ship_by_date: fc.option(date, { nil: null }),
  carrier_id: fc.constantFrom(0, null),
  ship_dock: fc.option(fc.string({ maxLength: 6 }))
}, { requiredKeys: [] })

const removed = Symbol("removed")

/** Up to three changes to a valid body: a field (or a line, or the body) replaced by junk, or left out. */
const mutations = fc.array(
  fc.record({
    field: fc.constantFrom(
      "order_id",
      "customer_id",
      "order_date",
      "ship_by_date",
      "carrier_id",
      "ship_dock",
      "lines",
      "qty",
      "sku_id",
      "line",
      "client_id",
      "order_status",
      "created_by",
      "qty_picked",
      "*"
    ),
    line: fc.nat({ max: 3 }),
    value: fc.oneof({ weight: 4, arbitrary: junk }, { weight: 1, arbitrary: fc.constant<unknown>(removed) })
  }),
  { maxLength: 3 }
)

type Mutation = { readonly field: string; readonly line: number; readonly value: unknown }

const set = (target: Record<string, unknown>, field: string, value: unknown) => {
  if (value === removed) delete target[field]
  else target[field] = value
}

/** Applies mutations to a copy of `body`; line fields go to one of its lines (or its only line). */
const mutate = (body: unknown, changes: ReadonlyArray<Mutation>): unknown => {
  let result: unknown = structuredClone(body)
  for (const change of changes) {
    if (change.field === "*") {
      result = change.value === removed ? undefined : change.value
      continue
    }
    if (typeof result !== "object" || result === null) continue
    const lines = Array.isArray(result) ? result : (result as { lines?: unknown }).lines
    const lineField = ["qty", "sku_id", "line", "qty_picked"].includes(change.field)
    if (!lineField) {
      if (!Array.isArray(result)) set(result as Record<string, unknown>, change.field, change.value)
    } else if (Array.isArray(lines) && lines.length > 0) {
      const line = lines[change.line % lines.length]
      if (typeof line === "object" && line !== null) set(line, change.field, change.value)
    } else if (!Array.isArray(result) && !("order_id" in (result as object))) {
      set(result as Record<string, unknown>, change.field, change.value)
    }
  }
  return result
}

type FuzzTarget = "POST /orders" | "PUT /orders/:id" | "POST /orders/:id/lines" | "PUT /orders/:id/lines/:line_id"

const fuzzCase: fc.Arbitrary<readonly [FuzzTarget, unknown]> = fc.oneof(
  fc.tuple(validHeader, fc.array(validLine, { maxLength: 4 }), mutations).map(([header, lines, changes]) =>
    ["POST /orders", mutate({ order_id: "NEW", ...header, lines }, changes)] as const
  ),
  fc.tuple(validHeader, mutations).map(([header, changes]) => ["PUT /orders/:id", mutate(header, changes)] as const),
  fc.tuple(fc.oneof(validLine, fc.array(validLine, { maxLength: 4 })), mutations).map(([lines, changes]) =>
    ["POST /orders/:id/lines", mutate(lines, changes)] as const
  ),
  fc.tuple(validLine, mutations).map(([line, changes]) =>
    ["PUT /orders/:id/lines/:line_id", mutate({ sku_id: line.sku_id, qty: line.qty }, changes)] as const
  )
)

/** Puts the world's real ids in place of the fuzzer's symbolic ones (customer 0/1, carrier 0). */
const realIds = (w: World, body: unknown, orderId: string): unknown => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body
  const copy: Record<string, unknown> = { ...body }
  if (copy.customer_id === 0 || copy.customer_id === 1) {
    copy.customer_id = [w.p_customer, w.p_customerNoTown][copy.customer_id]
  }
  if (copy.carrier_id === 0) copy.carrier_id = w.p_carrier
  if (copy.order_id === "NEW") copy.order_id = orderId
  return copy
}

for (const [label, server] of serverWithWorld) {
  layer(server, { timeout: 120_000, excludeTestServices: true })(`order properties on ${label}`, (it) => {
    it.effect("any sequence of order and line writes keeps the orders readable exactly as written", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const run = yield* withRunner
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), (ops) =>
              run(Effect.gen(function*() {
                const api = yield* Api
                const wire = toWire(w)
                const ids = Array.from({ length: orderCount }, () => unique("Q"))
                const model = new Map<number, ModelOrder>()
                for (const op of ops) {
                  const want = applyToModel(model, op)
                  const response = yield* send(w, ids, op)
                  assert.strictEqual(response.status, want, `${JSON.stringify(op)}: ${JSON.stringify(response.body)}`)
                  const got = yield* api.request("GET", `/orders/${encodeURIComponent(ids[op.order])}`, as(w))
                  const modelled = model.get(op.order)
                  if (modelled === undefined) {
                    assert.strictEqual(got.status, 404)
                    continue
                  }
                  assert.strictEqual(got.status, 200)
                  // An order read alone shows its shipping units; these writes pack none.
                  const { creation_datetime: _, shipping_units, ...record } = got.body
                  assert.deepStrictEqual(shipping_units, [], JSON.stringify(op))
                  assert.deepStrictEqual(record, wire.expected(ids[op.order], modelled), JSON.stringify(op))
                  const numbers = got.body.lines.map((line: { line: number }) => line.line)
                  assert.strictEqual(new Set(numbers).size, numbers.length)
                }
                const listed = (yield* api.request("GET", "/orders", as(w))).body
                  .filter((o: { order_id: string }) => ids.includes(o.order_id))
                  .map(({ creation_datetime: _, ...record }: { creation_datetime: string }) => record)
                const expected = [...model.entries()]
                  .map(([index, modelled]) => wire.expected(ids[index], modelled))
                  .sort((a, b) =>
                    listed.findIndex((o: { order_id: string }) => o.order_id === a.order_id) -
                    listed.findIndex((o: { order_id: string }) => o.order_id === b.order_id)
                  )
                assert.deepStrictEqual(listed, expected)
              }))),
            { numRuns: propertyRuns(20) }
          )
        )
      }))

    it.effect("no scope sees or changes another scope's orders", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const run = yield* withRunner
        const scopes = [
          { name: "P", token: w.userP.token, site: w.p, siteId: w.p, client: null },
          { name: "F", token: w.userF.token, site: w.f, siteId: w.f, client: null },
          { name: "F1", token: w.userF1.token, site: w.f1, siteId: w.f, client: w.f1 },
          { name: "F2", token: w.userF2.token, site: w.f2, siteId: w.f, client: w.f2 }
        ] as const
        type Scope = typeof scopes[number]
        const sees = (viewer: Scope, owner: Scope) =>
          viewer.siteId === owner.siteId && (viewer.client === null || viewer.client === owner.client)
        const writes = fc.array(
          fc.record({
            scope: fc.integer({ min: 0, max: 3 }),
            order: fc.integer({ min: 0, max: 3 }),
            action: fc.constantFrom("create", "update", "addLine", "delete")
          }),
          { minLength: 1, maxLength: 10 }
        )
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(writes, (steps) =>
              run(Effect.gen(function*() {
                const api = yield* Api
                const ids = Array.from({ length: 4 }, () => unique("S"))
                // Who owns each order id, per site: ids are unique per site, not per client.
                const owners = new Map<string, Scope>()
                const key = (scope: Scope, order: number) => `${scope.siteId}/${ids[order]}`
                for (const step of steps) {
                  const scope = scopes[step.scope]
                  const owner = owners.get(key(scope, step.order))
                  const visible = owner !== undefined && sees(scope, owner)
                  const path = `/orders/${ids[step.order]}`
                  const options = { token: scope.token, site: scope.site }
                  const sku = scope.client === w.f2 ? "F2-SKU" : scope.siteId === w.p ? "SKU-1" : "F1-SKU"
                  let response
                  let want: number
                  if (step.action === "create") {
                    response = yield* api.request("POST", "/orders", {
                      ...options,
                      body: { order_id: ids[step.order] }
                    })
                    want = owner === undefined ? 204 : 409
                    if (owner === undefined) owners.set(key(scope, step.order), scope)
                  } else if (step.action === "update") {
                    response = yield* api.request("PUT", path, { ...options, body: { ship_dock: scope.name } })
                    want = visible ? 204 : 404
                  } else if (step.action === "addLine") {
                    response = yield* api.request("POST", `${path}/lines`, {
                      ...options,
                      body: { sku_id: sku, qty: 1 }
                    })
                    want = visible ? 204 : 404
                  } else {
                    response = yield* api.request("DELETE", path, options)
                    want = visible ? 204 : 404
                    if (visible) owners.delete(key(scope, step.order))
                  }
                  assert.strictEqual(
                    response.status,
                    want,
                    `${scope.name} ${JSON.stringify(step)}: ${JSON.stringify(response.body)}`
                  )
                }
                for (const viewer of scopes) {
                  const options = { token: viewer.token, site: viewer.site }
                  const listed = (yield* api.request("GET", "/orders", options)).body
                    .filter((o: { order_id: string }) => ids.includes(o.order_id))
                    .map((o: { order_id: string; client_id: string | null }) => `${o.order_id}:${o.client_id}`)
                    .sort()
                  const expected = [...owners.entries()]
                    .filter(([, owner]) => sees(viewer, owner))
                    .map(([k, owner]) => `${k.slice(k.indexOf("/") + 1)}:${owner.client}`)
                    .sort()
                  assert.deepStrictEqual(listed, expected, viewer.name)
                  for (const id of ids) {
                    const owner = owners.get(`${viewer.siteId}/${id}`)
                    const got = yield* api.request("GET", `/orders/${id}`, options)
                    assert.strictEqual(
                      got.status,
                      owner !== undefined && sees(viewer, owner) ? 200 : 404,
                      `${viewer.name} ${id}`
                    )
                  }
                }
              }))),
            { numRuns: propertyRuns(20) }
          )
        )
      }))

    it.effect("fuzzed write bodies never answer 5xx and never write part of a request", () =>
      Effect.gen(function*() {
        const w = yield* OrdersWorld
        const run = yield* withRunner
        const target = unique("T")
        const api = yield* Api
        const created = yield* api.request("POST", "/orders", {
          ...as(w),
          body: { order_id: target, ship_dock: "D", lines: [{ sku_id: "SKU-1", qty: 1 }] }
        })
        assert.strictEqual(created.status, 204)
        const snapshot = Effect.map(api.request("GET", "/orders", as(w)), (response) => response.body)
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fuzzCase, ([endpoint, raw]) =>
              run(Effect.gen(function*() {
                const fresh = unique("N")
                const body = realIds(w, raw, fresh)
                const path = {
                  "POST /orders": "/orders",
                  "PUT /orders/:id": `/orders/${target}`,
                  "POST /orders/:id/lines": `/orders/${target}/lines`,
                  "PUT /orders/:id/lines/:line_id": `/orders/${target}/lines/1`
                }[endpoint]
                const method = endpoint.startsWith("POST") ? "POST" : "PUT"
                const before = yield* snapshot
                const response = yield* api.request(method, path, { ...as(w), rawBody: JSON.stringify(body) ?? "null" })
                const summary = `${endpoint} ${JSON.stringify(body)?.slice(0, 300)}: ${
                  JSON.stringify(response.body)?.slice(0, 300)
                }`
                assert.isBelow(response.status, 500, summary)
                if (response.status !== 204) {
                  assert.include([400, 404, 409, 413], response.status, summary)
                  assert.deepStrictEqual(yield* snapshot, before, summary)
                }
              }))),
            { numRuns: propertyRuns(100) }
          )
        )
      }))
  })
}
