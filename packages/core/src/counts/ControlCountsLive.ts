/**
 * The counts' side of `ControlCounts`: a short pick's control count is an Open count of the whole
 * location, not blind and for no one in particular, opened as any other (`openCount`).
 */
import { Effect, Layer } from "effect"
import { ControlCounts } from "../picking/ControlCounts.js"
import { CountRepository } from "./CountRepository.js"
import { openCount } from "./Open.js"

export const ControlCountsLive = Layer.effect(
  ControlCounts,
  Effect.map(CountRepository, (repository) => ({
    open: (actor, locId, reason, createdAt) =>
      Effect.asVoid(
        openCount(repository, actor, locId, { sku_id: null, blind: false, assignee: null, reason }, createdAt)
      )
  }))
)
