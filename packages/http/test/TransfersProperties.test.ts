/**
 * The property of transfers (spec §5, "Transfers conserve stock") through the real server, on
 * SQLite: for any sequence of transfers both ways between two sites (each waved, picked and
 * shipped), partial and whole receipts, over-receipts and short-closes, the stock of both sites
 * on hand before equals what is on hand after, plus what is in transit, plus what was written off,
 * for every SKU and lot (`checkTransferConservation` of `@wms/core/testing`). No request answers
 * 500, and no line receives more than it shipped.
 */
import type { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { checkTransferConservation, type LotOnHand, type TransferLineView } from "@wms/core/testing"
import { Effect, Layer, Runtime } from "effect"
import fc from "fast-check"
import { freshSqliteFile } from "../../../testing/databases.js"
import { propertyRuns } from "../../../testing/properties.js"
import { testServer } from "../../../testing/server.js"
import { type Request, session } from "./PickingWorld.js"
import { destinationSite, skuOnSites, stockAt, transferred } from "./TransferWorld.js"

const server = Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => testServer(`sqlite:${filename}`)))

const index = fc.nat({ max: 5 })

const operation = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("transfer" as const),
      back: fc.boolean(),
      lines: fc.array(fc.record({ sku: fc.nat({ max: 1 }), qty: fc.integer({ min: 1, max: 6 }) }), {
        minLength: 1,
        maxLength: 2
      })
    })
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("receive" as const),
      transfer: index,
      line: fc.integer({ min: 1, max: 3 }),
      qty: fc.integer({ min: 1, max: 5 })
    })
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("receiveAll" as const), transfer: index }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("close" as const),
      transfer: index,
      reason_code: fc.constantFrom("Damaged", "Theft", "Other")
    })
  }
)
type Operation = typeof operation extends fc.Arbitrary<infer A> ? A : never

/** The contents of the SKUs at a site, by lot. */
const onHand = (request: Request, site: string, skus: ReadonlyArray<string>) =>
  Effect.map(
    request("GET", "/inventory/overview", undefined, site),
    (response) => (response.body as ReadonlyArray<LotOnHand>).filter((content) => skus.includes(content.sku_id))
  )

/** What the runs did, so that the property is known to have searched something. */
const done = { shipped: 0, received: 0, closed: 0 }

/** Plays the operations between `main` and a new site, with stock at both; yields the violations and any 5xx. */
const play = (request: Request, operations: ReadonlyArray<Operation>) =>
  Effect.gen(function*() {
    const north = yield* destinationSite(request)
    const skus = [yield* skuOnSites([north], "TP"), yield* skuOnSites([north], "TP")]
    for (const [site, day] of [["main", "01"], [north, "02"]] as const) {
      for (const [i, sku] of skus.entries()) {
        yield* stockAt(request, {
          sku_id: sku,
          loc_id: `S-${i}`,
          tag_id: `${sku}-${site}-A`,
          qty: 4,
          expiry_date: `2031-01-${day}`
        }, site)
        yield* stockAt(request, { sku_id: sku, loc_id: `S-${i}`, tag_id: `${sku}-${site}-B`, qty: 3 }, site)
      }
    }
    const stockOf = Effect.map(
      Effect.all([onHand(request, "main", skus), onHand(request, north, skus)]),
      ([a, b]) => [...a, ...b]
    )
    const before = yield* stockOf
    // Each shipped transfer as its pre-advice and the site it went to.
    const shipped: Array<{ readonly preAdviceId: string; readonly site: string }> = []
    const at = (i: number) => shipped[i % Math.max(shipped.length, 1)]
    const failures: Array<string> = []
    for (const op of operations) {
      if (op.kind === "transfer") {
        const [from, to] = op.back ? [north, "main"] : ["main", north]
        const lines = op.lines.map((line) => ({ sku_id: skus[line.sku], qty: line.qty }))
        const { orderId, shipped: answer } = yield* transferred(request, to, lines, from)
        if (answer.status === 204) {
          shipped.push({ preAdviceId: `TR-${from}-${orderId}`, site: to })
          done.shipped++
        } else if (answer.status >= 500) failures.push(`${JSON.stringify(op)} → ${answer.status}`)
        continue
      }
      const transfer = at(op.transfer)
      if (transfer === undefined) continue
      const path = `/preadvices/${transfer.preAdviceId}`
      const answer = op.kind === "receive"
        ? yield* request("POST", `${path}/receive`, { lines: [{ line: op.line, qty: op.qty }] }, transfer.site)
        : op.kind === "receiveAll"
        ? yield* request("POST", `${path}/receive`, {}, transfer.site)
        : yield* request("POST", `${path}/close`, { reason_code: op.reason_code }, transfer.site)
      if (answer.status >= 500) failures.push(`${JSON.stringify(op)} → ${answer.status}`)
      if (answer.status === 204) done[op.kind === "close" ? "closed" : "received"]++
    }
    const lines: Array<TransferLineView> = []
    for (const transfer of shipped) {
      const preAdvice = yield* request("GET", `/preadvices/${transfer.preAdviceId}`, undefined, transfer.site)
      lines.push(...(preAdvice.body.lines as ReadonlyArray<TransferLineView>))
    }
    return [...failures, ...checkTransferConservation(before, yield* stockOf, lines)]
  })

layer(server, { timeout: 240_000 })("transfer properties on sqlite", (it) => {
  it.effect("transfers conserve stock over both sites: on hand before = on hand after + in transit + written off", () =>
    Effect.gen(function*() {
      const request = yield* session
      const runtime = yield* Effect.runtime<SqlClient.SqlClient>()
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 10 }), (operations) =>
            Runtime.runPromise(runtime)(
              Effect.map(play(request, operations), (violations) =>
                assert.deepStrictEqual(violations, []))
            )),
          {
            numRuns: propertyRuns(8),
            // One run that surely ships and receives, whatever the seed draws.
            examples: [[[
              { kind: "transfer", back: false, lines: [{ sku: 0, qty: 2 }] },
              { kind: "receiveAll", transfer: 0 }
            ]]]
          }
        )
      )
      assert.isTrue(done.shipped > 0 && done.received > 0, JSON.stringify(done))
    }))
})
