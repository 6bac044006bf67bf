/**
 * Lists shown in parts: the window a list request names, and the part of a list it shows.
 */
import { Schema } from "effect"

const WholeFromString = Schema.String.pipe(
  Schema.filter((s) => /^\d{1,9}$/.test(s), { message: () => "must be a whole number" }),
  Schema.compose(Schema.NumberFromString)
)

/** `limit` and `offset` of a list (extension, DECISIONS §9): without them, the whole list. */
export const ListWindow = Schema.Struct({
  limit: Schema.optional(WholeFromString),
  offset: Schema.optional(WholeFromString)
})
export type ListWindow = typeof ListWindow.Type

/** The part of a list a window shows. */
export const windowOf = <A>(items: ReadonlyArray<A>, window: ListWindow): ReadonlyArray<A> => {
  const start = window.offset ?? 0
  return items.slice(start, window.limit === undefined ? undefined : start + window.limit)
}
