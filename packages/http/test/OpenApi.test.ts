import { OpenApi } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { WarehouseApi } from "../src/Api.js"

interface Operation {
  readonly operationId: string
  readonly summary?: string
  readonly security: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
  readonly responses: Record<string, { readonly headers?: Record<string, unknown> }>
}

const spec = OpenApi.fromApi(WarehouseApi) as unknown as {
  readonly info: { readonly license?: { readonly name: string } }
  readonly servers?: ReadonlyArray<{ readonly url: string }>
  readonly tags: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  readonly components: { readonly securitySchemes: Record<string, Record<string, string>> }
  readonly paths: Record<string, Record<string, Operation>>
}

const operations = Object.entries(spec.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation }))
)

/** What a caller sends besides the body: nothing, the token only, or the token and the `site` header. */
const withoutToken = ["GET /health", "GET /ready", "POST /login"]
const tokenOnly = ["GET /verifytoken", "POST /users/me/password"]

describe("the OpenAPI document", () => {
  it("declares the site header as a security scheme beside the bearer token", () => {
    assert.deepStrictEqual(spec.components.securitySchemes.site, {
      ...spec.components.securitySchemes.site,
      type: "apiKey",
      in: "header",
      name: "site"
    })
    assert.strictEqual(operations.length, 142)
    for (const { operation, route } of operations) {
      const expected = withoutToken.includes(route) ? [] : tokenOnly.includes(route)
        ? [{ bearer: [] }]
        : [{ bearer: [], site: [] }]
      assert.deepStrictEqual(operation.security, expected, route)
    }
  })

  it("gives every operation a summary", () => {
    for (const { operation, route } of operations) {
      assert.match(operation.summary ?? "", /^[A-Z][^.]{2,40}$/, route)
    }
  })

  it("declares the Idempotency-Key header on every POST but /login and the import, which refuses it", () => {
    for (const { operation, route } of operations) {
      const declared = operation.parameters?.some((parameter) =>
        parameter.name === "Idempotency-Key" && parameter.in === "header"
      ) ?? false
      const taken = route.startsWith("POST ") && route !== "POST /login" && route !== "POST /import/{kind}"
      assert.strictEqual(declared, taken, route)
    }
  })

  it("declares X-Total-Count on the 200 of every list that takes limit, and nowhere else", () => {
    const lists = operations.filter(({ operation }) =>
      operation.parameters?.some((parameter) => parameter.name === "limit" && parameter.in === "query")
    ).map(({ route }) => route)
    const counted = operations.filter(({ operation }) =>
      Object.values(operation.responses).some((response) => response.headers?.["X-Total-Count"] !== undefined)
    ).map(({ operation, route }) => {
      assert.deepStrictEqual(Object.keys(operation.responses["200"]?.headers ?? {}), ["X-Total-Count"], route)
      return route
    })
    assert.deepStrictEqual(counted, lists)
    assert.strictEqual(lists.length, 33)
    assert.isTrue(lists.every((route) => route.startsWith("GET ")))
  })

  it("declares the import's body and the export's answer as CSV or NDJSON, with no JSON body parameters", () => {
    const paths = spec.paths as Record<string, Record<string, any>>
    const importing = paths["/import/{kind}"].post
    const exporting = paths["/export/{kind}"].get
    const files = ["text/csv", "application/x-ndjson"]
    assert.deepStrictEqual(Object.keys(importing.requestBody.content), files)
    assert.deepStrictEqual(Object.keys(exporting.responses[200].content), files)
    assert.isFalse(importing.parameters.some((parameter: { name: string }) => parameter.name === "Prefer"))
    assert.deepStrictEqual(importing.parameters[0].schema.enum, [
      "skus",
      "customers",
      "suppliers",
      "carriers",
      "orders",
      "preadvices",
      "stock",
      "holds",
      "returns"
    ])
  })

  it("has servers, a license and a description of every tag", () => {
    assert.deepStrictEqual(spec.servers?.map((server) => server.url), ["/"])
    assert.strictEqual(spec.info.license?.name, "MIT")
    for (const tag of spec.tags) assert.isString(tag.description, tag.name)
  })
})
