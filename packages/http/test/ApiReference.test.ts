import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { apiReference } from "../src/derived/ApiReference.js"

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8")

describe("docs/API.md", () => {
  it("is what `npm run docs:api` writes from the API's declaration", () => {
    const written = apiReference(read("../scripts/api-intro.md"))
    assert.strictEqual(read("../../../docs/API.md"), written, "docs/API.md is stale: run `npm run docs:api`")
  })
})
