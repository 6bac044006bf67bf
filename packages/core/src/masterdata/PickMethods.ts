/**
 * Pick methods (DECISIONS §5): how a SKU is picked. A fixed list; a SKU's `pick_method` is one id.
 */
import { Schema } from "effect"
import { type ListWindow, windowOf } from "../shared/Window.js"

/** A pick method as `GET /pickmethods` shows it. */
export const PickMethod = Schema.Struct({
  id: Schema.Number,
  description: Schema.String
})
export type PickMethod = typeof PickMethod.Type

/** Every pick method, by id. */
export const pickMethods: ReadonlyArray<PickMethod> = [
  { id: 1, description: "Per qty" },
  { id: 2, description: "Per each" }
]

/** `GET /pickmethods`, with the optional `limit` and `offset` of every list. */
export const listPickMethods = (window: ListWindow) => windowOf(pickMethods, window)
