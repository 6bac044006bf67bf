import { assert, describe, it } from "@effect/vitest"
import { checkWarehouseRules } from "./properties.js"

describe("a user's property suite", () => {
  it("generated warehouses and operations keep the engine's invariants and the user's rule", async () => {
    assert.strictEqual(await checkWarehouseRules(8), 8)
  })
})
