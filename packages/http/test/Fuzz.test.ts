/**
 * Every write endpoint, taken from the API declaration itself (so an endpoint added later is fuzzed
 * too), gets thousands of generated requests: an endpoint with a body gets well-formed bodies from
 * its payload schema, the same with fields turned hostile, and arbitrary JSON, then the same bodies
 * as multipart parts (with and without a boundary), a form, XML and with no content type; one
 * without gets hostile path values and stray bodies. None may answer 5xx, none answered 4xx may
 * change a row, and no body but JSON may get past its checks. The import of every kind gets files
 * of the same bodies, as NDJSON and as CSV: never a 5xx, a report whose rows add up, and nothing
 * written when it says no row was.
 *
 * On PostgreSQL, whose types refuse values SQLite keeps, the JSON bodies alone are sent to every
 * endpoint, fewer of them: what a body in another content type or an imported file becomes is the
 * server's, whatever its store.
 */
import { HttpApi } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { WarehouseApi } from "@wms/http"
import { Arbitrary, Effect, Option, Schema } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../testing/properties.js"
import { Api, serverOnBothStores } from "../../../testing/server.js"
import { callerFor, checkProperty, expect204, expectStatus, unique } from "../../../testing/world.js"
import { kinds, shapes } from "../src/features/import-export/Kinds.js"

interface WriteEndpoint {
  readonly method: "POST" | "PUT" | "DELETE"
  readonly path: string
  /** `None`: the endpoint reads no body. */
  readonly payload: Option.Option<Schema.Schema.Any>
}

const writeEndpoints: Array<WriteEndpoint> = []
HttpApi.reflect(WarehouseApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => {
    const { method, path } = endpoint
    if (method === "POST" || method === "PUT" || method === "DELETE") {
      // The reflected endpoint is typed loosely (`never` payloads); its schema is any schema.
      const payload = endpoint.payloadSchema as unknown as Option.Option<Schema.Schema.Any>
      writeEndpoints.push({ method, path, payload })
    }
  }
})
// Endpoints without a body last: their deletes would leave the others' paths naming nothing.
writeEndpoints.sort((a, b) => Number(Option.isNone(a.payload)) - Number(Option.isNone(b.payload)))

// A value of the wrong type, out of range, empty, huge or nested: what a careless or hostile body holds.
const hostileValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "1", "-1", "\ud800", "x".repeat(70_000)),
  fc.constantFrom(0, -1, 1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e308, -1e308),
  fc.boolean(),
  fc.constant(null),
  fc.constant(JSON.parse("[".repeat(40) + "]".repeat(40))),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.object({ maxDepth: 1 })
)

/** Well-formed bodies of the payload schema, when an arbitrary can be derived from it. */
const wellFormed = (payload: Schema.Schema.Any): fc.Arbitrary<unknown> => {
  try {
    const arbitrary = Arbitrary.make(Schema.encodedSchema(payload)) as fc.Arbitrary<unknown>
    fc.sample(arbitrary, 1)
    return arbitrary
  } catch {
    return fc.object({ maxDepth: 2 })
  }
}

/** Sets `value` at a random path of `body` (or drops the field there), in a copy. */
const corrupt = (body: unknown, choices: ReadonlyArray<number>, value: unknown): unknown => {
  if (typeof body !== "object" || body === null || choices.length === 0) return value
  const keys = Object.keys(body)
  if (keys.length === 0) return body
  const key = keys[choices[0] % keys.length]
  const copy: Record<string, unknown> = Array.isArray(body) ? [...body] as never : { ...body }
  if (value === undefined && choices.length === 1) delete copy[key]
  else copy[key] = corrupt(copy[key], choices.slice(1), value)
  return copy
}

const bodies = (payload: Option.Option<Schema.Schema.Any>) => {
  if (Option.isNone(payload)) return fc.option(hostileValue, { nil: undefined })
  const valid = wellFormed(payload.value)
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    {
      weight: 5,
      arbitrary: fc.tuple(
        valid,
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        fc.option(hostileValue, { nil: undefined })
      )
        .map(([body, choices, value]) => corrupt(body, choices, value))
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) }
  )
}

const textOf = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value) ?? "")

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : textOf(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text
}

/** Bodies as the rows of a CSV file: a column for each field any of them has, a line's fields as `lines.<field>`. */
const csvOf = (rows: ReadonlyArray<unknown>): string => {
  const flat = rows.map((row) => {
    const fields: Record<string, unknown> = {}
    if (typeof row !== "object" || row === null || Array.isArray(row)) return [fields]
    const { lines, ...header } = row as Record<string, unknown>
    Object.assign(fields, header)
    if (!Array.isArray(lines) || lines.length === 0) return [fields]
    return lines.map((line) => ({
      ...fields,
      ...Object.fromEntries(
        Object.entries(typeof line === "object" && line !== null ? line : {}).map(([k, v]) => [
          `lines.${k}`,
          v
        ])
      )
    }))
  }).flat()
  const columns = [...new Set(flat.flatMap((fields) => Object.keys(fields)))]
  return [columns.map(csvCell), ...flat.map((fields) => columns.map((column) => csvCell(fields[column])))]
    .map((cells) => cells.join(",")).join("\n")
}

/** The body's fields, or the whole body as one field when it is no object. */
const fieldsOf = (body: unknown): Array<[string, unknown]> =>
  typeof body === "object" && body !== null && !Array.isArray(body) ? Object.entries(body) : [["body", body]]

const parts = (body: unknown) =>
  fieldsOf(body).map(([name, value]) =>
    `--fuzz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${textOf(value)}\r\n`
  ).join("") + "--fuzz--\r\n"

/**
 * The content types a client may send a body in, with the body written in each: the same fields as
 * parts, a form or XML; none at all (which the API takes for JSON). Only JSON is read.
 */
const contentTypes: ReadonlyArray<{ readonly contentType: string; readonly write: (body: unknown) => string }> = [
  { contentType: "multipart/form-data; boundary=fuzz", write: parts },
  { contentType: "multipart/form-data", write: parts },
  {
    contentType: "application/x-www-form-urlencoded",
    write: (body) =>
      new URLSearchParams(fieldsOf(body).map(([name, value]): [string, string] => [name, textOf(value)])).toString()
  },
  {
    contentType: "application/xml",
    write: (body) =>
      `<body>${fieldsOf(body).map(([name, value]) => `<${name}>${textOf(value)}</${name}>`).join("")}</body>`
  },
  { contentType: "", write: textOf }
]

/**
 * Reads the rows of every table, except what the webhook worker writes on its own after a commit:
 * each table's rows as JSON objects, in one statement (a read per table made most of this file's
 * time). The statement is made once, from the catalog, which no request changes.
 */
const makeFingerprint = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = yield* sql.onDialectOrElse({
    pg: () =>
      sql<{ table: string; column: string }>`SELECT table_name AS "table", column_name AS "column"
        FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    orElse: () =>
      sql<{ table: string; column: string }>`SELECT m.name AS "table", p.name AS "column"
        FROM sqlite_master m, pragma_table_info(m.name) p
        WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid`
  })
  const tables = new Map<string, Array<string>>()
  for (const { column, table } of columns) {
    if (table !== "deliveries") tables.set(table, [...(tables.get(table) ?? []), column])
  }
  const quote = (name: string) => `"${name.replaceAll("\"", "\"\"")}"`
  const text = (name: string) => `'${name.replaceAll("'", "''")}'`
  // A table's rows as one JSON array of objects (SQLite's json_object names each column).
  const rowsOf = (table: string, names: ReadonlyArray<string>) =>
    sql.onDialectOrElse({
      pg: () => `SELECT coalesce(json_agg(t)::text, '[]') FROM ${quote(table)} t`,
      orElse: () =>
        `SELECT json_group_array(json_object(${
          names.map((name) => `${text(name)}, ${quote(name)}`).join(", ")
        })) FROM ${quote(table)}`
    })
  const statement = [...tables].map(([table, names]) =>
    `SELECT ${text(table)} AS name, (${rowsOf(table, names)}) AS rows`
  )
    .join(" UNION ALL ")
  return Effect.gen(function*() {
    const read = yield* sql.unsafe<{ name: string; rows: string }>(statement)
    const rows: Array<unknown> = []
    for (const { name, rows: json } of [...read].sort((a, b) => a.name.localeCompare(b.name))) {
      const table = JSON.parse(json) as Array<Record<string, unknown>>
      const kept = name === "webhooks" ? table.map(({ last_event_id: _, ...row }) => row) : table
      // Rows in the order of their text: a table's first column need not be unique (locations are
      // keyed by site and loc_id), and PostgreSQL may hand rows of equal keys back in another order
      // after pruning a page, with nothing written.
      rows.push(name, kept.map((row) => JSON.stringify(row)).sort())
    }
    return JSON.stringify(rows)
  }).pipe(Effect.orDie)
}).pipe(Effect.orDie)

/** The rows that went and came between two fingerprints, by table. */
const changedTables = (before: string, after: string) => {
  const [was, now] = [JSON.parse(before), JSON.parse(after)] as Array<Array<string | Array<string>>>
  const changed: Array<string> = []
  for (let i = 0; i < now.length; i += 2) {
    const [old, fresh] = [new Set(was[i + 1]), new Set(now[i + 1])]
    const gone = [...old].filter((row) => !fresh.has(row))
    const came = [...fresh].filter((row) => !old.has(row))
    if (gone.length + came.length > 0) changed.push(`${now[i]}: gone ${gone.join(", ")}; came ${came.join(", ")}`)
  }
  return changed.join("; ").slice(0, 2_000)
}

for (const [label, server] of serverOnBothStores) {
  // The requests per endpoint with a body, without one, and per content type other than JSON, in
  // npm test; WMS_PROPERTY_SCALE multiplies them for a longer search. PostgreSQL gets fewer: what
  // it adds is the values a store cannot keep, which `Values` and `Hardening` prove on both too.
  const sizes = label === "sqlite" ? { body: 15, none: 8, contentType: 2 } : { body: 8, none: 4, contentType: 0 }
  layer(server, { timeout: 540_000 })(`fuzzed writes on ${label}`, (it) => {
    it.effect(
      `${writeEndpoints.length} write endpoints: never 5xx, and a 4xx writes nothing`,
      () =>
        Effect.gen(function*() {
          const api = yield* Api
          const fingerprint = yield* makeFingerprint
          const admin = yield* api.login()
          const main = yield* callerFor(admin, "main")
          // Records for the paths to name, besides ids that name nothing.
          expect204(yield* main.post("/customers", { name: "Jansen", town: "Utrecht" }))
          expect204(yield* main.post("/suppliers", { name: "Acme" }))
          expect204(yield* main.post("/carriers", { name: "DHL" }))
          expect204(yield* main.post("/skus", { sku_id: "SKU-1", description: "Bolt" }))
          expect204(yield* main.post("/orders", { order_id: "O-1", lines: [{ sku_id: "SKU-1", qty: 2 }] }))
          expect204(yield* main.post("/preadvices", { pre_advice_id: "PA-1", lines: [{ sku_id: "SKU-1", qty: 5 }] }))
          expect204(yield* main.post("/inventory/adjustments", { sku_id: "SKU-1", loc_id: "A-1", qty: 10 }))
          // A managed location holding that stock, an Open movement task of it, and stock to put away.
          expectStatus(yield* main.post("/locations", { loc_id: "A-1", loc_type: "Storage" }), 201)
          expectStatus(yield* main.post("/locations", { loc_id: "B-1", loc_type: "Storage", max_tags: 1 }), 201)
          expectStatus(yield* main.post("/movement-tasks", { content_id: 1, qty: 2, to_loc_id: "B-1" }), 201)
          expect204(yield* main.post("/inventory/adjustments", { sku_id: "SKU-1", loc_id: "RECEIVING", qty: 4 }))
          // An Open count (id 1, of a location with stock inbound) and a Counting one (id 2).
          expectStatus(yield* main.post("/counts", { loc_id: "B-1" }), 201)
          expectStatus(yield* main.post("/counts", { loc_id: "A-1", blind: true }), 201)
          expect204(yield* main.post("/counts/2/release", null))
          // A pick face of the SKU, below its min: a replenishment run has work.
          expectStatus(yield* main.post("/locations", { loc_id: "PF-1", loc_type: "PickFace" }), 201)
          expect204(yield* main.put("/pick-faces/SKU-1/PF-1", { min_qty: 5, max_qty: 8 }))
          expect204(
            yield* main.post("/wave-definitions", { description: "All", criterium_id: 5, value: "", pick_type: 1 })
          )
          const other = `${unique("other")}@example.com`
          expect204(
            yield* main.post("/users", { email: other, password: "a-long-password", name: "Other", site: "main" })
          )
          const otherId = (yield* main.get("/users")).body.find((u: { email: string }) => u.email === other).userId
          const pathValue = fc.constantFrom(
            "1",
            "2",
            "O-1",
            "PA-1",
            "SKU-1",
            "A-1",
            "PF-1",
            "main",
            otherId,
            "2147483648",
            "1e308",
            "a%00b",
            "%20"
          )
          const paths = (template: string) =>
            fc.array(pathValue, { minLength: 4, maxLength: 4 }).map((values) => {
              let i = 0
              return template.replace(/:[A-Za-z_]+/g, () => values[i++])
            })

          let requests = 0
          let before = yield* fingerprint
          /** Sends `rawBody` (as JSON unless `contentType` says otherwise): never a 5xx, and a 4xx writes nothing. */
          const send = (endpoint: WriteEndpoint, path: string, rawBody: string | undefined, contentType?: string) =>
            Effect.gen(function*() {
              requests++
              const options = { token: admin, site: "main", rawBody, contentType }
              const response = yield* api.request(endpoint.method, path, options)
              const shown = `${endpoint.method} ${path} as ${contentType ?? "JSON"}: ${rawBody?.slice(0, 300)}`
              assert.isBelow(response.status, 500, `${JSON.stringify(response.body)} for ${shown}`)
              const after = yield* fingerprint
              if (response.status >= 400) {
                assert.isString(response.body?.message, shown)
                assert.strictEqual(
                  after,
                  before,
                  `a ${response.status} wrote for ${shown}: ${changedTables(before, after)}`
                )
              }
              before = after
              return response
            })
          for (const endpoint of writeEndpoints) {
            before = yield* fingerprint
            yield* checkProperty(
              fc.tuple(paths(endpoint.path), bodies(endpoint.payload)),
              ([path, body]) =>
                Effect.asVoid(send(endpoint, path, body === undefined ? undefined : JSON.stringify(body))),
              Option.isSome(endpoint.payload) ? sizes.body : sizes.none
            )
            if (Option.isNone(endpoint.payload) || sizes.contentType === 0) continue
            for (const { contentType, write } of contentTypes) {
              yield* checkProperty(
                fc.tuple(paths(endpoint.path), bodies(endpoint.payload)),
                ([path, body]) =>
                  Effect.gen(function*() {
                    const response = yield* send(endpoint, path, write(body), contentType)
                    // Only JSON is read: no body in another type gets past its checks.
                    if (contentType !== "") {
                      assert.strictEqual(response.status, 400, `${endpoint.method} ${path} as ${contentType}`)
                    }
                  }),
                sizes.contentType
              )
            }
          }
          // Every property ran its requests: the arbitraries derived from the schemas generate.
          const withBody = writeEndpoints.filter((endpoint) => Option.isSome(endpoint.payload)).length
          const perBody = propertyRuns(sizes.body) +
            (sizes.contentType === 0 ? 0 : contentTypes.length * propertyRuns(sizes.contentType))
          const planned = withBody * perBody + (writeEndpoints.length - withBody) * propertyRuns(sizes.none)
          assert.isAtLeast(requests, planned * 0.9)
        }),
      480_000
    )

    it.effect.skipIf(label !== "sqlite")(
      `imports of the ${kinds.length} kinds: never 5xx, a report that adds up, nothing written when no row is`,
      () =>
        Effect.gen(function*() {
          const api = yield* Api
          const fingerprint = yield* makeFingerprint
          const admin = yield* api.login()
          for (const kind of kinds) {
            const files = fc.array(bodies(Option.some(shapes[kind].body as Schema.Schema.Any)), { maxLength: 4 })
            yield* checkProperty(files, (rows) =>
              Effect.gen(function*() {
                for (
                  const [contentType, text] of [
                    ["application/x-ndjson", rows.map((row) => JSON.stringify(row)).join("\n")],
                    ["text/csv", csvOf(rows)]
                  ] as const
                ) {
                  const before = yield* fingerprint
                  const shown = `POST /import/${kind} as ${contentType}: ${text.slice(0, 300)}`
                  const response = yield* api.request("POST", `/import/${kind}`, {
                    token: admin,
                    site: "main",
                    rawBody: text,
                    contentType
                  })
                  assert.isBelow(response.status, 500, `${JSON.stringify(response.body)} for ${shown}`)
                  if (response.status !== 200) {
                    // Only a CSV header that names a column twice is refused whole.
                    assert.strictEqual(response.status, 400, shown)
                    assert.strictEqual(yield* fingerprint, before, `a ${response.status} wrote for ${shown}`)
                    continue
                  }
                  const report = response.body
                  assert.strictEqual(report.written + report.failed, report.rows, shown)
                  assert.isAtLeast(report.errors.length, Math.min(report.failed, 1), shown)
                  if (report.written === 0) {
                    assert.strictEqual(yield* fingerprint, before, `no row written, yet ${shown}`)
                  }
                }
              }), 15)
          }
        }),
      240_000
    )
  })
}
