import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it, layer } from "@effect/vitest"
import { Warehouse } from "@wms/http"
import { Effect, Layer } from "effect"
import { Api, apiLayer } from "../../testing/server.js"
import { program } from "./effect.js"
import { app } from "./mounted.js"

describe("embedded with Effect", () => {
  it.effect("runs the warehouse services without a server", () =>
    Effect.gen(function*() {
      const sites = yield* program
      assert.deepStrictEqual(sites.map((site) => site.site_id), ["main", "north"])
    }).pipe(Effect.provide(Warehouse.layer({ database: "sqlite::memory:" }))))
})

const mounted = apiLayer.pipe(
  Layer.provideMerge(app("sqlite::memory:")),
  Layer.provideMerge(NodeHttpServer.layerTest)
)

layer(mounted)("mounted in an application's server", (it) => {
  it.effect("serves the warehouse API next to the application's own routes", () =>
    Effect.gen(function*() {
      const api = yield* Api
      const hello = yield* api.request("GET", "/hello")
      assert.deepStrictEqual(hello.body, { message: "Hello from the application" })
      const health = yield* api.request("GET", "/health")
      assert.deepStrictEqual([health.status, health.body], [200, { status: "ok" }])
      const unauthenticated = yield* api.request("GET", "/sites")
      assert.deepStrictEqual(unauthenticated.body, { message: "Missing authorization token" })
    }))
})
