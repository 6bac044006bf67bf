import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api, serverOnBothStores } from "../../../testing/server.js"

for (const [label, server] of serverOnBothStores) {
  layer(server, { timeout: 60_000 })(`values the stores cannot keep on ${label}`, (it) => {
    it.effect("a NUL character in a site or client id is a 400, not a 500", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const client = yield* api.request("POST", "/clients", {
          token,
          site: "main",
          body: { client_id: "a\u0000b", name: "X" }
        })
        assert.deepStrictEqual([client.status, client.body], [400, {
          message: "Invalid field client_id: must not contain NUL characters"
        }])
        const site = yield* api.request("POST", "/sites", {
          token,
          site: "main",
          body: { site_id: "s\u0000", name: "X" }
        })
        assert.deepStrictEqual([site.status, site.body], [400, {
          message: "Invalid field site_id: must not contain NUL characters"
        }])
      }))

    it.effect("a quantity over 2^31 - 1 is a 400, not a 500", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const token = yield* api.login()
        const response = yield* api.request("POST", "/preadvices/NONE/receive", {
          token,
          site: "main",
          body: { lines: [{ line: 1, qty: 2147483648 }] }
        })
        assert.deepStrictEqual([response.status, response.body], [400, {
          message: "Invalid field lines.0.qty: must be at most 2147483647"
        }])
      }))
  })
}
