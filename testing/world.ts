/**
 * What the API tests share on top of the test server: unique ids, an Effect property runner, a
 * client bound to a token and a `site` header, response checks, and tenants (a plain site, a
 * fulfillment site with two clients) created through the API.
 */
import { assert } from "@effect/vitest"
import { Effect, Runtime } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "./properties.js"
import { Api, type TestResponse } from "./server.js"

/** The HTTP methods of `Api.request`. */
export type Method = "GET" | "POST" | "PUT" | "DELETE"

/** Runs a fast-check property whose check is an Effect, in the test's runtime, `propertyRuns(numRuns)` times. */
export const checkProperty = <A, R>(
  arbitrary: fc.Arbitrary<A>,
  check: (value: A) => Effect.Effect<void, never, R>,
  numRuns: number
) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<R>()
    yield* Effect.promise(() =>
      fc.assert(fc.asyncProperty(arbitrary, (value) => Runtime.runPromise(runtime)(check(value))), {
        numRuns: propertyRuns(numRuns)
      })
    )
  })

/** An id no other test (or earlier run on the same database) has used. */
export const unique = (prefix: string) => `${prefix}-${globalThis.crypto.randomUUID().slice(0, 8)}`

/** Requests with one token and one `site` header. */
export interface Caller {
  readonly get: (path: string) => Effect.Effect<TestResponse>
  readonly post: (path: string, body: unknown) => Effect.Effect<TestResponse>
  readonly put: (path: string, body: unknown) => Effect.Effect<TestResponse>
  readonly del: (path: string) => Effect.Effect<TestResponse>
}

/** A `Caller` with the token in the scope of `site`. */
export const callerFor = (token: string, site: string) =>
  Effect.map(Api, (api): Caller => ({
    get: (path) => api.request("GET", path, { token, site }),
    post: (path, body) => api.request("POST", path, { token, site, body }),
    put: (path, body) => api.request("PUT", path, { token, site, body }),
    del: (path) => api.request("DELETE", path, { token, site })
  }))

/** Asserts a status, showing the body when it differs. */
export const expectStatus = (response: TestResponse, status: number) =>
  assert.strictEqual(response.status, status, JSON.stringify(response.body))

/** Asserts a 204 and passes nothing on. */
export const expect204 = (response: TestResponse, what = "") =>
  assert.strictEqual(response.status, 204, `${what} ${JSON.stringify(response.body)}`)

/** Asserts a `{message}` error of the status. */
export const expectError = (response: TestResponse, status: number, message: string) =>
  assert.deepStrictEqual([response.status, response.body], [status, { message }])

/** The id of the last record of a list, e.g. the one just created. */
export const lastId = (caller: Caller, path: string) =>
  Effect.map(caller.get(path), (response) => {
    assert.strictEqual(response.status, 200)
    return response.body[response.body.length - 1].id as number
  })

/** Creates a fulfillment site `f` with clients `f1` and `f2` through the API as the admin; yields their ids. */
export const makeFulfillmentSite = (admin: string) =>
  Effect.gen(function*() {
    const ids = { f: unique("F"), f1: unique("F1"), f2: unique("F2") }
    const main = yield* callerFor(admin, "main")
    expect204(yield* main.post("/sites", { site_id: ids.f, name: "F", fulfillment: true }), "site")
    const f = yield* callerFor(admin, ids.f)
    expect204(yield* f.post("/clients", { client_id: ids.f1, name: "F1" }), "client F1")
    expect204(yield* f.post("/clients", { client_id: ids.f2, name: "F2" }), "client F2")
    return ids
  })

/**
 * A plain site P and a fulfillment site F with clients F1 and F2, each as a caller with the admin
 * token (an admin may use any scope), with their ids and the admin token.
 */
export const makeTenants = Effect.gen(function*() {
  const api = yield* Api
  const admin = yield* api.login()
  const p = unique("P")
  expect204(yield* (yield* callerFor(admin, "main")).post("/sites", { site_id: p, name: "P" }), "site")
  const ids = { p, ...yield* makeFulfillmentSite(admin) }
  return {
    ...ids,
    admin,
    P: yield* callerFor(admin, ids.p),
    F: yield* callerFor(admin, ids.f),
    F1: yield* callerFor(admin, ids.f1),
    F2: yield* callerFor(admin, ids.f2)
  }
})
