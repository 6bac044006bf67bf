import { assert, describe, it } from "@effect/vitest"
import { MoveAllRequest, PreAdviceIdFromPath, SiteId, StoredText, TextId, TextIdFromPath } from "@wms/core"
import { Either, Schema } from "effect"
import fc from "fast-check"

// The text schemas a write or a lookup goes through, each built on StoredText.
const texts = {
  StoredText,
  SiteId,
  TextId,
  TextIdFromPath,
  PreAdviceIdFromPath,
  reason: Schema.Struct({ reason: MoveAllRequest.fields.reason })
}
const decode = (name: keyof typeof texts, text: string) =>
  name === "reason"
    ? Schema.decodeUnknownEither(texts.reason)({ reason: text })
    : Schema.decodeUnknownEither(texts[name] as Schema.Schema<unknown, string>)(text)

const names = Object.keys(texts) as Array<keyof typeof texts>
const messageOf = (result: Either.Either<unknown, unknown>) => Either.isLeft(result) ? String(result.left) : "accepted"

describe("StoredText", () => {
  it("refuses U+0000 and a lone surrogate, and keeps any valid Unicode text, in every text schema", () => {
    fc.assert(fc.property(
      fc.constantFrom(...names),
      fc.fullUnicodeString({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ""),
      fc.constantFrom("\u0000", "\ud800", "\udfff"),
      fc.nat(20),
      (name, text, bad, at) => {
        assert.strictEqual(messageOf(decode(name, text)), "accepted", `${name} ${JSON.stringify(text)}`)
        const cut = Math.min(at, text.length)
        const spoiled = text.slice(0, cut) + bad + text.slice(cut)
        // Cutting inside a surrogate pair spoils it too: refused either way.
        const message = messageOf(decode(name, spoiled))
        assert.match(message, bad === "\u0000" ? /NUL characters|valid Unicode/ : /must be valid Unicode text/, name)
      }
    ))
  })
})
