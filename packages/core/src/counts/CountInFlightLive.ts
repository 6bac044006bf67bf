/**
 * The counts' side of `CountInFlight`: a pick or move confirmed while its location is counted is
 * recorded as the count's in-flight delta by `CountRepository.addInFlight`.
 */
import { Effect, Layer } from "effect"
import { CountInFlight } from "../stock/CountInFlight.js"
import { CountRepository } from "./CountRepository.js"

export const CountInFlightLive = Layer.effect(
  CountInFlight,
  Effect.map(CountRepository, (counts) => ({ addInFlight: counts.addInFlight }))
)
