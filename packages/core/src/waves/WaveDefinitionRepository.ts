/**
 * The store port for wave definitions, which belong to a site. Every lookup and write names the
 * site, so a definition of another site is never found nor changed.
 */
import { Context, type Effect, type Option } from "effect"
import type { SiteId } from "../shared/Ids.js"
import type { ListWindow } from "../shared/Window.js"
import type { WaveDefinition, WaveDefinitionInput } from "./WaveDefinition.js"

/** A definition as stored: the record without the descriptions, which the service adds. */
export type WaveDefinitionRow = Omit<WaveDefinition, "criterium" | "picktypedescription">

/** Where wave definitions are stored; store failures are defects. */
export class WaveDefinitionRepository extends Context.Tag("@wms/core/WaveDefinitionRepository")<
  WaveDefinitionRepository,
  {
    /** The definitions of the site, by id, within the window. */
    readonly list: (siteId: SiteId, window: ListWindow) => Effect.Effect<ReadonlyArray<WaveDefinitionRow>>
    /** The definition with this id, when it belongs to the site. */
    readonly find: (siteId: SiteId, id: number) => Effect.Effect<Option.Option<WaveDefinitionRow>>
    /** Inserts a definition of the site and returns its id. */
    readonly insert: (siteId: SiteId, input: WaveDefinitionInput) => Effect.Effect<number>
    /** Replaces the writable fields of the site's definition; false when it has none with this id. */
    readonly update: (siteId: SiteId, id: number, input: WaveDefinitionInput) => Effect.Effect<boolean>
    /** Deletes the site's definition; false when it has none with this id. */
    readonly remove: (siteId: SiteId, id: number) => Effect.Effect<boolean>
  }
>() {}
