import { HttpApi, HttpApiSchema, OpenApi } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import * as Core from "@wms/core"
import { Option, Schema, SchemaAST } from "effect"
import { WarehouseApi } from "../src/Api.js"
import { type ErrorClass, onTheWire, statusOf } from "../src/api/Errors.js"

type AnyErrorClass = ErrorClass<Core.WarehouseError>

// Every error class of the core: the classes whose instances have a category.
const errorClasses = (Object.values(Core) as ReadonlyArray<unknown>).filter((value): value is AnyErrorClass =>
  typeof value === "function" && Object.getOwnPropertyDescriptor(value.prototype ?? {}, "category") !== undefined
)

const membersOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.AST> =>
  SchemaAST.isUnion(ast) ? ast.types.flatMap(membersOf) : [ast]

const fieldNames = (error: AnyErrorClass) => Object.keys(error.fields).filter((name) => name !== "_tag")

const isNumber = (field: unknown) => SchemaAST.encodedAST((field as Schema.Schema.Any).ast)._tag === "NumberKeyword"

// An instance with awkward data: texts holding words of the templates and characters of regular
// expressions, and negative numbers.
const sampleOf = (error: AnyErrorClass) =>
  new error(Object.fromEntries(
    fieldNames(error).map((name) => [name, isNumber(error.fields[name]) ? -12 : `X (${name}) of order 1.*`])
  ))

const dataOf = (error: Core.WarehouseError, names: ReadonlyArray<string>) => ({
  _tag: error._tag,
  message: error.message,
  ...Object.fromEntries(names.map((name) => [name, (error as unknown as Record<string, unknown>)[name]]))
})

describe("the API's errors", () => {
  it("go out as {message} with the status of their category, and come back with their data", () => {
    assert.isAbove(errorClasses.length, 40)
    for (const error of errorClasses) {
      const sample = sampleOf(error)
      const wire = onTheWire(error)
      const encoded = Schema.encodeSync(wire)(sample)
      assert.deepStrictEqual(encoded, { message: sample.message }, sample._tag)
      const decoded = Schema.decodeUnknownSync(wire)(encoded)
      assert.instanceOf(decoded, error)
      assert.deepStrictEqual(dataOf(decoded, fieldNames(error)), dataOf(sample, fieldNames(error)))
      assert.strictEqual(HttpApiSchema.getStatusError(wire), statusOf[sample.category], sample._tag)
      assert.strictEqual(onTheWire(error), wire, "one schema per error")
    }
  })

  it("of one status on one endpoint are told apart by their text, as the typed client reads them", () => {
    let checked = 0
    HttpApi.reflect(WarehouseApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, errors }) => {
        const declared = new Set(membersOf(endpoint.errorSchema.ast))
        for (const error of errorClasses) {
          if (!declared.has(onTheWire(error).ast)) continue
          const sample = sampleOf(error)
          // What the client decodes a response of this status with: every error of it, the
          // endpoint's, its group's and the API's.
          const ofStatus = errors.get(statusOf[sample.category])?.ast ?? Option.none()
          if (Option.isNone(ofStatus)) return assert.fail(`${endpoint.name}: no schema for ${sample._tag}`)
          const decoded = Schema.decodeUnknownSync(Schema.make(ofStatus.value))({ message: sample.message })
          assert.instanceOf(decoded, error, `${endpoint.name}: ${sample.message}`)
          const names = fieldNames(error)
          assert.deepStrictEqual(dataOf(decoded as Core.WarehouseError, names), dataOf(sample, names))
          checked++
        }
      }
    })
    assert.isAbove(checked, 80)
  })

  describe("in the OpenAPI document", () => {
    interface JsonSchema {
      readonly $ref?: string
      readonly anyOf?: ReadonlyArray<JsonSchema>
    }
    interface Response {
      readonly description: string
      readonly content?: Record<string, { readonly schema: JsonSchema }>
    }
    const spec = OpenApi.fromApi(WarehouseApi) as unknown as {
      readonly paths: Record<string, Record<string, { readonly responses: Record<string, Response> }>>
      readonly components: { readonly schemas: Record<string, { readonly description?: string }> }
    }
    const refsOf = (schema: JsonSchema) =>
      (schema.anyOf ?? [schema]).map((member) => member.$ref?.replace("#/components/schemas/", ""))
    const errorsOf = (path: string, method: string) =>
      Object.fromEntries(
        Object.entries(spec.paths[path][method].responses)
          .filter(([status]) => Number(status) >= 400)
          .map(([status, response]) => [status, refsOf(response.content!["application/json"].schema)])
      )
    const common = {
      400: ["HttpApiDecodeError", "InvalidInput"],
      401: ["Unauthenticated"],
      403: ["Forbidden"],
      413: ["PayloadTooLarge"],
      500: ["InternalServerError"]
    }

    it("list for each endpoint only the errors it can answer", () => {
      assert.deepStrictEqual(errorsOf("/orders", "get"), common)
      assert.deepStrictEqual(errorsOf("/orders/{id}", "get"), { ...common, 404: ["OrderNotFound"] })
      assert.deepStrictEqual(errorsOf("/orders", "post"), {
        ...common,
        404: ["SiteNotFound"],
        409: [
          "OrderExists",
          "OrderLineExists",
          "OrderLineNumbersExhausted",
          "TransferInClientScope",
          "TransferSkuMissing",
          "IdempotencyKeyReused"
        ]
      })
      assert.deepStrictEqual(errorsOf("/preadvices/{id}/close", "post"), {
        ...common,
        404: ["PreAdviceNotFound"],
        409: ["PreAdviceNotTransfer", "PreAdviceNotOpen", "IdempotencyKeyReused"]
      })
      assert.deepStrictEqual(errorsOf("/orders/{id}/lines/{line_id}", "delete"), {
        ...common,
        404: ["OrderNotFound", "OrderLineNotFound"],
        409: ["OrderNotReleased"]
      })
      assert.deepStrictEqual(errorsOf("/waves/start", "post"), {
        ...common,
        404: ["WaveNotFound"],
        409: ["WaveStarted", "IdempotencyKeyReused"]
      })
      assert.deepStrictEqual(errorsOf("/webhooks/{id}", "delete"), { ...common, 404: ["WebhookNotFound"] })
      assert.deepStrictEqual(errorsOf("/users/{userId}", "delete"), {
        ...common,
        404: ["UserNotFound"],
        409: ["LastActiveAdmin"]
      })
      const { 403: _, ...noScope } = common
      assert.deepStrictEqual(errorsOf("/login", "post"), { ...noScope, 429: ["TooManyLogins"] })
      const { 401: _401, 403: _403, ...noToken } = common
      assert.deepStrictEqual(errorsOf("/health", "get"), { ...noToken, 503: ["Unavailable"] })
    })

    it("describe each error by its documented text, the fields in angle brackets", () => {
      const described = (name: string) => spec.components.schemas[name].description
      assert.strictEqual(described("OrderLineNotFound"), "Line <line> of order <orderId> not found")
      assert.strictEqual(described("WaveStarted"), "Wave met id <waveId> is al gestart")
      assert.strictEqual(described("WebhookNotFound"), "Webhook niet gevonden")
      assert.strictEqual(
        spec.paths["/waves/start"].post.responses[409].description,
        "Wave met id <waveId> is al gestart; or Idempotency-Key <key> was used with another request"
      )
    })
  })
})
