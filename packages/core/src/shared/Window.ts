/**
 * Lists shown in parts: the window a list request names, the part of a list it shows, and the
 * number of records the whole list has, for a caller that asks for it.
 */
import { Effect, FiberRef, Schema } from "effect"

/** The largest `limit` or `offset`: nine digits. */
export const maxWindowBound = 999_999_999

/** A `limit` or `offset` as the query gives it: one message for any text out of its range. */
export const WindowBound = Schema.String.pipe(
  Schema.filter((s) => /^\d{1,9}$/.test(s), { message: () => `must be a whole number from 0 to ${maxWindowBound}` }),
  Schema.compose(Schema.NumberFromString)
).annotations({ jsonSchema: { type: "integer", minimum: 0, maximum: maxWindowBound } })

/** `limit` and `offset` of a list (extension, DECISIONS §9): without them, the whole list. */
export const ListWindow = Schema.Struct({
  limit: Schema.optional(WindowBound),
  offset: Schema.optional(WindowBound)
})
export type ListWindow = typeof ListWindow.Type

/** The part of a list a window shows. */
export const windowOf = <A>(items: ReadonlyArray<A>, window: ListWindow): ReadonlyArray<A> => {
  const start = window.offset ?? 0
  return items.slice(start, window.limit === undefined ? undefined : start + window.limit)
}

/** Where a list read with a `limit` puts the number of records it matched without its window. */
export interface ListTotal {
  total: number | undefined
}

/**
 * The `ListTotal` of the fiber's list reads, when its caller asks for one (the REST API, for
 * `X-Total-Count`); none by default, so that a read that nobody counts (an export read a page at a
 * time, the engine's own reads) counts nothing.
 */
export const listTotal = FiberRef.unsafeMake<ListTotal | undefined>(undefined)

/** Runs `read` with a `ListTotal` asked for, and answers its result with the total it put there. */
export const withListTotal = <A, E, R>(read: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const counted: ListTotal = { total: undefined }
    return Effect.map(Effect.locally(read, listTotal, counted), (result) => [result, counted.total] as const)
  })

/** Puts `total` in the fiber's `ListTotal`, if it has one. */
export const noteListTotal = (total: number): Effect.Effect<void> =>
  FiberRef.getWith(listTotal, (counted) => {
    if (counted !== undefined) counted.total = total
    return Effect.void
  })

/**
 * The part of the list `list` reads that a window shows; with a `limit`, the list's length goes to
 * the fiber's `ListTotal`. Without one, the read is mapped as it always was.
 */
export const inWindow = <A, E, R>(
  list: Effect.Effect<ReadonlyArray<A>, E, R>,
  window: ListWindow
): Effect.Effect<ReadonlyArray<A>, E, R> =>
  window.limit === undefined
    ? Effect.map(list, (items) => windowOf(items, window))
    : Effect.flatMap(list, (items) => Effect.as(noteListTotal(items.length), windowOf(items, window)))
