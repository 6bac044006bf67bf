/**
 * The check of the Node.js version at import: the rule on version strings, and the oldest major it
 * allows is every package's `engines` field. The entry points' refusal on an old Node is run in
 * `packages/http/test/OldNode.test.ts`.
 */
import { assert, describe, it } from "@effect/vitest"
import { nodeVersionProblem, supportedNodeMajor } from "@wms/core"
import { readFileSync } from "node:fs"

describe("the version of Node.js", () => {
  it("22 and later pass; an older one gets one line naming both versions", () => {
    for (const version of ["22.0.0", "22.23.3", "24.21.0", "30.1.0-nightly"]) {
      assert.isUndefined(nodeVersionProblem(version), version)
    }
    assert.strictEqual(nodeVersionProblem("20.20.2"), "wms needs Node.js 22 or newer; this is Node.js 20.20.2")
    for (const version of ["21.7.3", "18.0.0", "8.9.4"]) assert.include(nodeVersionProblem(version), version)
  })

  it("a version that cannot be read is not checked", () => {
    for (const version of ["", "v20.0.0", "latest"]) assert.isUndefined(nodeVersionProblem(version))
  })

  it("the oldest major allowed is every package's engines field", () => {
    for (
      const name of [
        "",
        "packages/core/",
        "packages/sql/",
        "packages/sql-sqlite/",
        "packages/sql-pg/",
        "packages/http/"
      ]
    ) {
      const manifest = JSON.parse(readFileSync(new URL(`../../../${name}package.json`, import.meta.url), "utf8"))
      assert.strictEqual(manifest.engines?.node, `>=${supportedNodeMajor}`, name)
    }
  })
})
