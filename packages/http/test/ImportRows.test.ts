import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Stream } from "effect"
import { Readable } from "node:stream"
import { shapes } from "../src/features/import-export/Kinds.js"
import { entries, maxRowBytes } from "../src/features/import-export/Rows.js"

/** The rows an NDJSON file sent in chunks of `size` bytes yields before it stops, and why it stops. */
const readInChunks = (text: string, size: number) => {
  const bytes = Buffer.from(text)
  const chunks = Array.from(
    { length: Math.ceil(bytes.length / size) },
    (_, i) => bytes.subarray(i * size, (i + 1) * size)
  )
  const rows: Array<number> = []
  return Effect.map(
    Effect.either(Stream.runForEach(
      entries(Readable.from(chunks), "ndjson", shapes.skus),
      (entry) => Effect.sync(() => rows.push(...entry.rows))
    )),
    (result) => ({ rows, stop: Either.isLeft(result) ? result.left : undefined })
  )
}

describe("NDJSON rows", () => {
  it.effect("a line over 1 MiB stops the file after the lines before it, however the file is cut in chunks", () =>
    Effect.gen(function*() {
      const line = (id: string, description = id) => JSON.stringify({ sku_id: id, description })
      const text = [line("A"), line("B", "x".repeat(maxRowBytes + 1)), line("C")].join("\n") + "\n"
      // One chunk holds the whole long line; small chunks make it the unfinished last line instead.
      for (const size of [text.length, 64 * 1024]) {
        const { rows, stop } = yield* readInChunks(text, size)
        assert.deepStrictEqual(rows, [1], `chunks of ${size}`)
        assert.deepStrictEqual([stop?._tag, (stop as { row?: number })?.row], ["Unreadable", 2], `chunks of ${size}`)
      }
      // The last line, without a newline after it, is checked too.
      const last = yield* readInChunks([line("A"), line("B", "x".repeat(maxRowBytes + 1))].join("\n"), 1 << 30)
      assert.deepStrictEqual([last.rows, (last.stop as { row?: number })?.row], [[1], 2])
    }))
})
