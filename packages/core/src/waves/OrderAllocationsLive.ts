/**
 * The waves' side of `OrderAllocations`: an order is deleted with its allocation given back by
 * `Waves.releaseOrder`.
 */
import { Effect, Layer } from "effect"
import { OrderAllocations } from "../orders/OrderAllocations.js"
import { Waves } from "./Waves.js"

export const OrderAllocationsLive = Layer.effect(
  OrderAllocations,
  Effect.map(Waves, (waves) => ({ release: waves.releaseOrder }))
)
