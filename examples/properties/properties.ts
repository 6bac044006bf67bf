/**
 * A user's own property suite: generated warehouses and operation sequences from
 * `@wms/core/testing`, played on the engine, checked against the engine's invariants and a rule
 * of the user's own. Run: `node examples/dist/properties/properties.js` after `npm run build`.
 */
import { ensureSite, systemActor } from "@wms/core"
import { arbOps, arbWarehouse, play } from "@wms/core/testing"
import { createWarehouse } from "@wms/http"
import { Effect } from "effect"
import * as fc from "fast-check"
import { pathToFileURL } from "node:url"

/** Checks the rules on `numRuns` generated warehouses; rejects with the counterexample when one breaks. */
export const checkWarehouseRules = async (numRuns = 10) => {
  const wms = await createWarehouse({ database: "sqlite::memory:" })
  let run = 0
  try {
    await fc.assert(
      fc.asyncProperty(arbWarehouse(), arbOps(), async (state, ops) => {
        // Each run gets a site of its own, so runs never see each other's stock.
        const site = `run-${++run}`
        const { violations } = await wms.run(Effect.gen(function*() {
          yield* ensureSite(site)
          return yield* play(yield* systemActor(site), state, ops)
        }))
        // The engine's invariants: stock never negative or over-allocated, every allocated unit
        // claimed, the ledger replays to the stock, first expiry first out at every wave start.
        if (violations.length > 0) throw new Error(violations.join("\n"))

        // A rule of our own: an order the engine calls Allocated has every line fully claimed.
        const scope = wms.as({ site })
        const claimed = new Map<string, number>()
        for (const wave of await scope.waves.list()) {
          for (const claim of await scope.waves.claims(wave.id)) {
            const key = `${claim.order_id}/${claim.line_id}`
            claimed.set(key, (claimed.get(key) ?? 0) + claim.qty)
          }
        }
        for (const order of await scope.orders.listOrders()) {
          if (order.order_status.id !== 15) continue
          for (const line of order.lines ?? []) {
            if ((claimed.get(`${order.order_id}/${line.line}`) ?? 0) !== line.qty) {
              throw new Error(`order ${order.order_id} is Allocated but line ${line.line} is not fully claimed`)
            }
          }
        }
      }),
      { numRuns }
    )
    return run
  } finally {
    await wms.close()
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  checkWarehouseRules(50).then(
    (runs) => console.log(`${runs} generated warehouses kept every rule`),
    (error) => {
      console.error(error)
      process.exitCode = 1
    }
  )
}
