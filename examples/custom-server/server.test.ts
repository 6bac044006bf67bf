import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { app } from "./server.js"

const call = (path: string, options: { readonly key?: string; readonly body?: unknown } = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = options.body === undefined ? HttpClientRequest.get(path) : HttpClientRequest.post(path)
    if (options.key !== undefined) request = HttpClientRequest.setHeader(request, "x-api-key", options.key)
    if (options.body !== undefined) request = yield* HttpClientRequest.bodyJson(request, options.body)
    const response = yield* client.execute(request)
    const text = yield* response.text
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }).pipe(Effect.scoped, Effect.orDie)

describe("the API mounted in an application's own server", () => {
  layer(app("sqlite::memory:").pipe(Layer.provideMerge(NodeHttpServer.layerTest)))((it) => {
    it.effect("serves the application's routes and the API under /wms", () =>
      Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        const home = yield* Effect.scoped(Effect.flatMap(client.get("/"), (response) => response.text))
        assert.strictEqual(home, "The shop's own home page")
        const health = yield* call("/wms/health")
        assert.deepStrictEqual(health, { status: 200, body: { status: "ok" } })
        const unknown = yield* call("/wms/nowhere", { key: "shop-key" })
        assert.strictEqual(unknown.status, 404)
      }))

    it.effect("authorizes with the application's hook instead of a token", () =>
      Effect.gen(function*() {
        const anonymous = yield* call("/wms/orders")
        assert.deepStrictEqual(anonymous, { status: 401, body: { message: "Missing or unknown x-api-key" } })
        const created = yield* call("/wms/orders", { key: "shop-key", body: { order_id: "SO-1" } })
        assert.strictEqual(created.status, 204)
        const mine = yield* call("/wms/orders", { key: "shop-key" })
        assert.deepStrictEqual(mine.body.map((order: { order_id: string }) => order.order_id), ["SO-1"])
        const order = yield* call("/wms/orders/SO-1", { key: "shop-key" })
        assert.strictEqual(order.body.created_by, "api-key:main")
        const theirs = yield* call("/wms/orders", { key: "partner-key" })
        assert.deepStrictEqual(theirs, { status: 200, body: [] })
        const invalid = yield* call("/wms/orders", { key: "shop-key", body: {} })
        assert.deepStrictEqual(invalid, { status: 400, body: { message: "Missing field order_id" } })
        const huge = yield* call("/wms/orders", { key: "shop-key", body: { order_id: "x".repeat(1_100_000) } })
        assert.deepStrictEqual(huge, { status: 413, body: { message: "Request body is larger than 1 MiB" } })
      }))
  })
})
