/**
 * A feature of the API: its group's declaration and the group's handlers. The handlers are loaded
 * when the server or the facade is built, not with the declaration, so that the typed client
 * (`Client.ts`), which needs the declaration alone, loads no server, store or Node code.
 */
import type { HttpApiBuilder, HttpApiGroup } from "@effect/platform"
import type { Effect } from "effect"
import type { ApiError, Methods, Table } from "./Table.js"

/** A group with a caller: its table, and the facade's methods over it. */
export interface TableHandlers<G extends HttpApiGroup.HttpApiGroup.Any> {
  // Any service and failure: the server's layer takes its requirements from the built table.
  readonly table: Effect.Effect<Table<G>, any, any>
  readonly methods: Methods<G>
}

/** A group's handlers: its table, or for a group with no caller the platform's builder (`groupHandlers`). */
export type Handlers<G extends HttpApiGroup.HttpApiGroup.Any> =
  | TableHandlers<G>
  | ((handlers: HttpApiBuilder.Handlers.FromGroup<ApiError, never, G>) => unknown)

export interface Feature<G extends HttpApiGroup.HttpApiGroup.Any, H extends Handlers<G>> {
  readonly group: G
  readonly handlers: () => Promise<H>
}

/** The handlers of feature `F`, as its module gives them. */
export type HandlersOf<F> = F extends Feature<infer _G, infer H> ? H : never

/** The feature of `group`, whose handlers `load` imports. */
export const feature = <G extends HttpApiGroup.HttpApiGroup.Any, H extends Handlers<G>>(
  group: G,
  load: () => Promise<H>
): Feature<G, H> => ({ group, handlers: load })

/**
 * The handlers of a group with no caller, built as `HttpApiBuilder.group` builds them and checked
 * as it checks them: every endpoint handled.
 */
export const groupHandlers = <G extends HttpApiGroup.HttpApiGroup.Any>(_group: G) =>
<Return>(
  build: (
    handlers: HttpApiBuilder.Handlers.FromGroup<ApiError, never, G>
  ) => HttpApiBuilder.Handlers.ValidateReturn<Return>
) => build
