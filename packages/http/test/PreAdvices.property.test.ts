import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../testing/properties.js"
import { serverOnApiTestStores } from "../../../testing/server.js"
import { unique } from "../../../testing/world.js"
import { setup, storeSnapshot } from "./PreAdviceSetup.js"

type World = Effect.Effect.Success<typeof setup>

interface LineInput {
  readonly line?: number
  readonly qty: number
  readonly sku: 0 | 1
  readonly pallet_id?: string | null
}

type Op =
  | {
    readonly _tag: "create"
    readonly key: number
    readonly supplier: boolean
    readonly lines: ReadonlyArray<LineInput>
  }
  | {
    readonly _tag: "addLines"
    readonly key: number
    readonly many: boolean
    readonly lines: ReadonlyArray<LineInput>
  }
  | { readonly _tag: "updateHeader"; readonly key: number; readonly supplier: boolean | null }
  | {
    readonly _tag: "updateLine"
    readonly key: number
    readonly line: number
    readonly qty?: number
    readonly pallet_id?: string | null
  }
  | { readonly _tag: "deleteLine"; readonly key: number; readonly line: number }
  | { readonly _tag: "delete"; readonly key: number }

const key = fc.integer({ min: 0, max: 2 })
const lineNumber = fc.integer({ min: 1, max: 6 })
const pallet = fc.option(fc.constantFrom("P1", "P2", "pallet with spaces"), { nil: null })
const lineInput: fc.Arbitrary<LineInput> = fc.record({
  line: lineNumber,
  qty: fc.integer({ min: 1, max: 5 }),
  sku: fc.constantFrom(0 as const, 1 as const),
  pallet_id: pallet
}, { requiredKeys: ["qty", "sku"] })
const lineInputs = fc.array(lineInput, { maxLength: 4 })

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ _tag: fc.constant("create" as const), key, supplier: fc.boolean(), lines: lineInputs }),
  fc.record({ _tag: fc.constant("addLines" as const), key, many: fc.boolean(), lines: lineInputs }),
  fc.record({ _tag: fc.constant("updateHeader" as const), key, supplier: fc.option(fc.boolean(), { nil: null }) }),
  fc.record({
    _tag: fc.constant("updateLine" as const),
    key,
    line: lineNumber,
    qty: fc.integer({ min: 1, max: 5 }),
    pallet_id: pallet
  }, { requiredKeys: ["_tag", "key", "line"] }),
  fc.record({ _tag: fc.constant("deleteLine" as const), key, line: lineNumber }),
  fc.record({ _tag: fc.constant("delete" as const), key })
)

interface ModelLine {
  readonly sku_id: string
  readonly qty: number
  readonly pallet_id: string | null
}

interface ModelPreAdvice {
  supplier: number | null
  readonly lines: Map<number, ModelLine>
}

/** Numbers lines the documented way; undefined when a number repeats. */
const numberLines = (existing: ReadonlyMap<number, unknown>, lines: ReadonlyArray<LineInput>) => {
  let next = Math.max(0, ...existing.keys(), ...lines.map((l) => l.line ?? 0)) + 1
  const numbers = lines.map((l) => l.line ?? next++)
  const all = [...existing.keys(), ...numbers]
  return new Set(all).size === all.length ? numbers : undefined
}

/** Applies one write to the API and to the model, checking the status against the model's. */
const apply = (w: World, prefix: string, model: Map<number, ModelPreAdvice>, o: Op) =>
  Effect.gen(function*() {
    const id = `${prefix}-${o.key}`
    const path = `/preadvices/${encodeURIComponent(id)}`
    const found = model.get(o.key)
    const sku = (l: LineInput) => l.sku === 0 ? w.skuF : w.sku1
    const body = (l: LineInput) => ({ sku_id: sku(l), qty: l.qty, line: l.line, pallet_id: l.pallet_id })
    const toModel = (l: LineInput) => ({ sku_id: sku(l), qty: l.qty, pallet_id: l.pallet_id ?? null })
    let expected: number
    let response: { status: number }
    switch (o._tag) {
      case "create": {
        const numbers = numberLines(new Map(), o.lines)
        expected = found !== undefined ? 409 : numbers === undefined ? 409 : 204
        response = yield* w.call("POST", "/preadvices", w.f, {
          pre_advice_id: id,
          supplier: o.supplier ? w.supF : undefined,
          lines: o.lines.map(body)
        })
        if (expected === 204) {
          model.set(o.key, {
            supplier: o.supplier ? w.supF : null,
            lines: new Map(o.lines.map((l, i) => [numbers![i], toModel(l)]))
          })
        }
        break
      }
      case "addLines": {
        const lines = o.many ? o.lines : o.lines.slice(0, 1)
        if (lines.length === 0 && !o.many) return
        const numbers = found === undefined ? undefined : numberLines(found.lines, lines)
        expected = found === undefined ? 404 : numbers === undefined ? 409 : 204
        response = yield* w.call("POST", `${path}/lines`, w.f, o.many ? lines.map(body) : body(lines[0]))
        if (expected === 204) lines.forEach((l, i) => found!.lines.set(numbers![i], toModel(l)))
        break
      }
      case "updateHeader": {
        expected = found === undefined ? 404 : 204
        const change = o.supplier === null ? {} : { supplier: o.supplier ? w.supF : null }
        response = yield* w.call("PUT", path, w.f, change)
        if (expected === 204 && o.supplier !== null) found!.supplier = o.supplier ? w.supF : null
        break
      }
      case "updateLine": {
        const line = found?.lines.get(o.line)
        expected = line === undefined ? 404 : 204
        response = yield* w.call("PUT", `${path}/lines/${o.line}`, w.f, { qty: o.qty, pallet_id: o.pallet_id })
        if (line !== undefined) {
          found!.lines.set(o.line, {
            ...line,
            qty: o.qty ?? line.qty,
            pallet_id: o.pallet_id === undefined ? line.pallet_id : o.pallet_id
          })
        }
        break
      }
      case "deleteLine": {
        expected = found?.lines.has(o.line) ? 204 : 404
        response = yield* w.call("DELETE", `${path}/lines/${o.line}`, w.f)
        found?.lines.delete(o.line)
        break
      }
      case "delete": {
        expected = found === undefined ? 404 : 204
        response = yield* w.call("DELETE", path, w.f)
        model.delete(o.key)
        break
      }
    }
    assert.strictEqual(response.status, expected, JSON.stringify(o))
  })

/** The pre-advice as the model says `GET /preadvices/:id` must show it (without its creation time). */
const expectedRecord = (w: World, id: string, p: ModelPreAdvice) => ({
  pre_advice_id: id,
  client_id: null,
  pre_advice_status: { id: 1, description: "Open" },
  supplier: p.supplier === null ? null : { id: p.supplier, name: "Supplier F" },
  created_by: w.userId,
  lines: [...p.lines.entries()].sort(([a], [b]) => a - b).map(([line, l]) => ({
    pre_advice_id: id,
    line,
    sku_id: l.sku_id,
    qty: l.qty,
    qty_received: 0,
    pallet_id: l.pallet_id,
    client_id: null
  }))
})

const scopes = ["f", "c1", "c2", "main"] as const
type ScopeName = typeof scopes[number]

/** Which scopes see a record written in `writer`: its site's scope and its own client. */
const sees = (reader: ScopeName, writer: ScopeName) =>
  reader === writer || (reader === "f" && (writer === "c1" || writer === "c2"))

const siteOf = (scope: ScopeName) => scope === "main" ? "main" : "f"

const huge = fc.integer({ min: 100_000, max: 900_000 }).map((n) => "x".repeat(n))
const junk: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.oneof(fc.string(), fc.fullUnicodeString({ maxLength: 8 }), fc.constantFrom("", " ")), weight: 3 },
  { arbitrary: fc.string({ maxLength: 4 }).map((s) => `${s}\u0000`), weight: 2 },
  { arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 1e300)), weight: 3 },
  { arbitrary: fc.constantFrom(null, true, false), weight: 2 },
  { arbitrary: fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.anything({ maxDepth: 2 }), { maxKeys: 3 }), weight: 1 },
  { arbitrary: huge, weight: 1 }
)

// Mostly valid values, so that one bad field at a time reaches the deeper checks.
const maybe = <A>(valid: fc.Arbitrary<A>) => fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: junk, weight: 1 })

// `@name` stands for a record of the test world (`@skuF`, `@c1`, …); `@id` for the fuzzed pre-advice.
const fuzzedLine = fc.record({
  sku_id: maybe(fc.constantFrom("@skuF", "@sku1")),
  qty: maybe(fc.integer({ min: 1, max: 9 })),
  line: maybe(fc.integer({ min: 1, max: 9 })),
  pallet_id: maybe(fc.constant("P")),
  client_id: maybe(fc.constantFrom("@c1", "@c2")),
  qty_received: junk
}, { requiredKeys: [] })

const fuzzedHeader = fc.record({
  pre_advice_id: maybe(fc.constantFrom("@id", "FZ-new-1", "FZ-new-2")),
  supplier: maybe(fc.constantFrom("@supF", "@sup1")),
  client_id: maybe(fc.constantFrom("@c1", "@c2")),
  lines: maybe(fc.array(fc.oneof(fuzzedLine, junk), { maxLength: 3 })),
  pre_advice_status: junk,
  created_by: junk
}, { requiredKeys: [] })

const fuzzedRequest = fc.oneof(
  fc.record({
    method: fc.constant("POST" as const),
    path: fc.constant("/preadvices"),
    body: fc.oneof(fuzzedHeader, junk)
  }),
  fc.record({
    method: fc.constant("PUT" as const),
    path: fc.constant("/preadvices/@id"),
    body: fc.oneof(fuzzedHeader, junk)
  }),
  fc.record({
    method: fc.constant("POST" as const),
    path: fc.constant("/preadvices/@id/lines"),
    body: fc.oneof(fuzzedLine, fc.array(fc.oneof(fuzzedLine, junk), { maxLength: 3 }), junk)
  }),
  fc.record({
    method: fc.constant("PUT" as const),
    path: fc.constantFrom("/preadvices/@id/lines/1", "/preadvices/@id/lines/2"),
    body: fc.oneof(fuzzedLine, junk)
  })
)

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000, excludeTestServices: true })(`pre-advice properties on ${label}`, (it) => {
    it.effect.prop(
      "any sequence of writes keeps line numbers unique and every pre-advice readable exactly as written",
      [fc.array(op, { minLength: 1, maxLength: 12 })],
      ([ops]) =>
        Effect.gen(function*() {
          const w = yield* setup
          const prefix = unique("M")
          const model = new Map<number, ModelPreAdvice>()
          const check = (k: number) =>
            Effect.gen(function*() {
              const id = `${prefix}-${k}`
              const response = yield* w.call("GET", `/preadvices/${encodeURIComponent(id)}`, w.f)
              const p = model.get(k)
              if (p === undefined) return assert.strictEqual(response.status, 404)
              const { creation_datetime, ...record } = response.body
              assert.match(creation_datetime, /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/)
              assert.deepStrictEqual(record, expectedRecord(w, id, p))
              const lines = (yield* w.call("GET", `/preadvices/${encodeURIComponent(id)}/lines`, w.f)).body
              assert.deepStrictEqual(lines, record.lines)
            })
          for (const o of ops) {
            yield* apply(w, prefix, model, o)
            yield* check(o.key)
          }
          for (const k of [0, 1, 2]) yield* check(k)
          const listed = (yield* w.call("GET", "/preadvices", w.f)).body.map((p: { pre_advice_id: string }) =>
            p.pre_advice_id
          )
          assert.sameMembers(listed, [...model.keys()].map((k) => `${prefix}-${k}`))
        }),
      { timeout: 120_000, fastCheck: { numRuns: propertyRuns(15) } }
    )

    it.effect.prop(
      "no scope sees another scope's pre-advices",
      [fc.array(fc.record({ scope: fc.constantFrom(...scopes), key: fc.integer({ min: 0, max: 4 }) }), {
        maxLength: 10
      })],
      ([writes]) =>
        Effect.gen(function*() {
          const w = yield* setup
          const site = { f: w.f, c1: w.c1, c2: w.c2, main: "main" }
          const prefix = unique("S")
          // Keyed by `<id>@<site>`: ids are unique per site.
          const owners = new Map<string, ScopeName>()
          for (const write of writes) {
            const id = `${prefix}-${write.key}`
            const entry = `${id}@${siteOf(write.scope)}`
            const taken = owners.has(entry)
            const response = yield* w.call("POST", "/preadvices", site[write.scope], { pre_advice_id: id })
            assert.strictEqual(response.status, taken ? 409 : 204)
            if (!taken) owners.set(entry, write.scope)
          }
          for (const reader of scopes) {
            const list = (yield* w.call("GET", "/preadvices", site[reader])).body as Array<{ pre_advice_id: string }>
            const expected = [...owners].filter(([, writer]) => sees(reader, writer)).map(([entry]) =>
              entry.split("@")[0]
            )
            assert.sameMembers(list.map((p) => p.pre_advice_id).filter((id) => id.startsWith(prefix)), expected)
            for (const [entry, writer] of owners) {
              const [id, ownerSite] = entry.split("@")
              if (ownerSite !== siteOf(reader)) continue
              const response = yield* w.call("GET", `/preadvices/${id}`, site[reader])
              assert.strictEqual(response.status, sees(reader, writer) ? 200 : 404, `${reader} reads ${entry}`)
            }
          }
        }),
      { timeout: 120_000, fastCheck: { numRuns: propertyRuns(8) } }
    )

    // Built once per store: the fuzzed bodies refer to its records through placeholders.
    let fuzzWorld: { readonly w: World; readonly id: string } | undefined
    const fuzzTarget = Effect.gen(function*() {
      if (fuzzWorld !== undefined) return fuzzWorld
      const w = yield* setup
      const id = unique("FZ")
      const created = yield* w.call("POST", "/preadvices", w.f, {
        pre_advice_id: id,
        lines: [{ sku_id: w.skuF, qty: 1 }]
      })
      assert.strictEqual(created.status, 204)
      fuzzWorld = { w, id }
      return fuzzWorld
    })

    it.effect.prop(
      "fuzzed write bodies never get a 5xx, and a refused write changes nothing",
      [fuzzedRequest],
      ([request]) =>
        Effect.gen(function*() {
          const { id, w } = yield* fuzzTarget
          const resolve = (value: unknown): unknown => {
            if (typeof value === "string" && value.startsWith("@")) {
              const name = value.slice(1)
              return name === "id" ? id : name in w ? w[name as keyof World] : value
            }
            if (Array.isArray(value)) return value.map(resolve)
            if (typeof value === "object" && value !== null) {
              return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]))
            }
            return value
          }
          const body = resolve(request.body)
          const before = yield* storeSnapshot
          const response = yield* w.call(request.method, request.path.replace("@id", id), w.f, body)
          const shown = JSON.stringify(body).slice(0, 300)
          assert.include([204, 400, 404, 409, 413], response.status, `${shown}: ${JSON.stringify(response.body)}`)
          if (response.status !== 204) {
            assert.deepStrictEqual(yield* storeSnapshot, before, shown)
            assert.deepStrictEqual(Object.keys(response.body), ["message"])
          }
        }),
      { timeout: 120_000, fastCheck: { numRuns: propertyRuns(250) } }
    )
  })
}
