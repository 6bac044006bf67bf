/**
 * Whether the server still takes work: `GET /ready` answers 503 once the bundled server begins to
 * stop (SIGTERM or SIGINT), while it finishes the requests in flight. An API served by an
 * application's own server is never marked stopping; that server decides its own readiness.
 */
import { Context } from "effect"

export interface ReadinessState {
  stopping: boolean
}

export class Readiness extends Context.Reference<Readiness>()("@wms/http/Readiness", {
  defaultValue: (): ReadinessState => ({ stopping: false })
}) {}

/** A state of its own for one server. */
export const make = (): ReadinessState => ({ stopping: false })
