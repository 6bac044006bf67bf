/**
 * Line numbers of a document with lines (an order, a pre-advice): unique per document; a line
 * written without a number gets the next one after the highest in use. Pure functions only.
 */
import { Either } from "effect"

/** The highest line number a store can keep (a 32-bit integer column). */
export const maxLineNumber = 2147483647

/** Why a batch of lines could not be numbered. */
export type LineNumberingFailure =
  | { readonly _tag: "DuplicateLine"; readonly line: number }
  | { readonly _tag: "LineNumbersExhausted" }

/**
 * The numbers of `requested` lines (in their order) added to a document whose lines are `existing`.
 * An explicit number already in use, or given twice, is a `DuplicateLine`. Lines without a number
 * are numbered after the highest of the existing lines and every explicit number of the batch, so
 * `[{}, {line: 1}]` on an empty document is numbered `[2, 1]` rather than failing.
 */
export const assignLineNumbers = (
  existing: Iterable<number>,
  requested: ReadonlyArray<number | null | undefined>
): Either.Either<ReadonlyArray<number>, LineNumberingFailure> => {
  const taken = new Set(existing)
  let highest = 0
  for (const line of taken) if (line > highest) highest = line
  for (const line of requested) {
    if (line === null || line === undefined) continue
    if (taken.has(line)) return Either.left({ _tag: "DuplicateLine", line })
    taken.add(line)
    if (line > highest) highest = line
  }
  const numbered: Array<number> = []
  for (const line of requested) {
    if (line === null || line === undefined) {
      if (highest >= maxLineNumber) return Either.left({ _tag: "LineNumbersExhausted" })
      highest += 1
      numbered.push(highest)
    } else {
      numbered.push(line)
    }
  }
  return Either.right(numbered)
}
