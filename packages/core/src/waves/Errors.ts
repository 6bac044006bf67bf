/**
 * The failures of wave definitions and waves, each with its data and its documented (Dutch) message.
 */
import { Schema } from "effect"

/** 404: no wave definition with this id on the caller's site. */
export class WaveDefinitionNotFound extends Schema.TaggedError<WaveDefinitionNotFound>()("WaveDefinitionNotFound", {
  waveDefinitionId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Wave definitie met id ${this.waveDefinitionId} niet gevonden`
  }
}

/** 404: no wave with this id in the caller's scope. */
export class WaveNotFound extends Schema.TaggedError<WaveNotFound>()("WaveNotFound", {
  waveId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Wave met id ${this.waveId} niet gevonden`
  }
}

/** 409: the wave is started already. */
export class WaveStarted extends Schema.TaggedError<WaveStarted>()("WaveStarted", {
  waveId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Wave met id ${this.waveId} is al gestart`
  }
}

/** 409: picking of the wave has begun, so it can no longer be deleted. */
export class WavePickingStarted extends Schema.TaggedError<WavePickingStarted>()("WavePickingStarted", {
  waveId: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Wave met id ${this.waveId} kan niet worden verwijderd: het picken is begonnen`
  }
}
