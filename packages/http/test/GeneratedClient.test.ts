/**
 * A client generated from the OpenAPI document, as an integrator makes one: the bundled server
 * serves `/openapi.json`, openapi-typescript writes the types of its paths, and a small program
 * typed by them and calling through openapi-fetch must type-check under the TypeScript compiler
 * (a call the document does not allow must not) and then run against that server: log in, create a
 * SKU and an order (the `site` header sent as the document's security scheme says), read the order
 * back and list the orders a page at a time with `X-Total-Count`. Nothing generated is committed.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import createClient from "openapi-fetch"
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript"
import ts from "typescript"
import { freshSqliteFile } from "../../../testing/databases.js"
import { startServer } from "../../../testing/processes.js"
import { adminEmail, adminPassword } from "../../../testing/server.js"

/** The program typed by the generated `paths`; it takes openapi-fetch's `createClient` so that its JavaScript imports nothing. */
const program = `
import type createClient from "openapi-fetch"
import type { paths } from "./schema.js"

export interface Access {
  readonly email: string
  readonly password: string
  /** The header the document's \`site\` security scheme names, and the site it carries. */
  readonly siteHeader: string
  readonly site: string
}

/** Calls the document does not allow, each refused by the compiler; never run. */
export const refused = (client: ReturnType<typeof createClient<paths>>) => [
  // @ts-expect-error: the document requires an order's id in its path
  client.GET("/orders/{id}", { params: { path: {} } }),
  // @ts-expect-error: an order line's qty is a number
  client.POST("/orders", { body: { order_id: "GEN-SO-X", lines: [{ sku_id: "GEN-1", qty: "2" }] } }),
  // @ts-expect-error: the document has no such path
  client.GET("/order", {})
]

export const run = async (create: typeof createClient, baseUrl: string, access: Access) => {
  const client = create<paths>({ baseUrl })
  const login = await client.POST("/login", { body: { email: access.email, password: access.password } })
  if (login.data === undefined) throw new Error("login failed: " + JSON.stringify(login.error))
  const token: string = login.data.token
  client.use({
    onRequest: ({ request }) => {
      request.headers.set("authorization", "Bearer " + token)
      request.headers.set(access.siteHeader, access.site)
      return request
    }
  })
  const sku = await client.POST("/skus", { body: { sku_id: "GEN-1", description: "Generated" } })
  const orders = ["GEN-SO-1", "GEN-SO-2", "GEN-SO-3"]
  const created = []
  for (const order_id of orders) {
    const answer = await client.POST("/orders", { body: { order_id, lines: [{ sku_id: "GEN-1", qty: 2 }] } })
    created.push([answer.response.status, answer.response.headers.get("location")])
  }
  const read = await client.GET("/orders/{id}", { params: { path: { id: "GEN-SO-1" } } })
  if (read.data === undefined) throw new Error("order not read: " + JSON.stringify(read.error))
  const firstLine: { sku_id: string; qty: number } | undefined = read.data.lines?.[0]
  const page = await client.GET("/orders", { params: { query: { limit: 2, offset: 1, lines: "false" } } })
  const missing = await client.GET("/orders/{id}", { params: { path: { id: "GEN-SO-0" } } })
  return {
    sku: sku.response.status,
    created,
    order: { order_id: read.data.order_id, sku_id: firstLine?.sku_id, qty: firstLine?.qty },
    page: page.data?.map((order) => order.order_id),
    total: page.response.headers.get("x-total-count"),
    missing: [missing.response.status, missing.error]
  }
}
`

/** The compiler's complaints about the program, as text; none when it type-checks. */
const typeErrors = (directory: string) => {
  const openapiFetch = fileURLToPath(new URL("../../../node_modules/openapi-fetch/dist/index.d.mts", import.meta.url))
  const compiled = ts.createProgram([join(directory, "program.ts")], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    paths: { "openapi-fetch": [openapiFetch] }
  })
  return ts.getPreEmitDiagnostics(compiled).map((diagnostic) =>
    ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
  )
}

it.live("a client generated from /openapi.json type-checks and calls the server", () =>
  Effect.gen(function*() {
    const server = yield* startServer(`sqlite:${yield* freshSqliteFile}`)
    const document = yield* Effect.promise(() =>
      fetch(`${server.url}/openapi.json`).then((r) => r.json() as Promise<OpenAPI3>)
    )
    const directory = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "wms-generated-client-"))),
      (made) => Effect.sync(() => rmSync(made, { recursive: true, force: true }))
    )
    const types = astToString(yield* Effect.promise(() => openapiTS(document)))
    writeFileSync(join(directory, "schema.d.ts"), types)
    writeFileSync(join(directory, "program.ts"), program)
    assert.deepStrictEqual(typeErrors(directory), [])

    // The scheme of the `site` header, as the document declares it.
    const site = document.components?.securitySchemes?.site as { type: string; in: string; name: string }
    assert.deepStrictEqual([site.type, site.in], ["apiKey", "header"])
    const javascript = ts.transpileModule(program, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext }
    }).outputText
    writeFileSync(join(directory, "program.mjs"), javascript)
    const { run } = yield* Effect.promise(() => import(pathToFileURL(join(directory, "program.mjs")).href))
    const outcome = yield* Effect.promise(() =>
      run(createClient, server.url, { email: adminEmail, password: adminPassword, siteHeader: site.name, site: "main" })
    )
    assert.deepStrictEqual(outcome, {
      sku: 204,
      created: [[204, "/orders/GEN-SO-1"], [204, "/orders/GEN-SO-2"], [204, "/orders/GEN-SO-3"]],
      order: { order_id: "GEN-SO-1", sku_id: "GEN-1", qty: 2 },
      page: ["GEN-SO-2", "GEN-SO-3"],
      total: "3",
      missing: [404, { message: "Order with OrderID GEN-SO-0 not found" }]
    })
  }).pipe(Effect.scoped), { timeout: 60_000 })
