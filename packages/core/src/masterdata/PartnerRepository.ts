/**
 * The store port for customers and suppliers, which share one shape and differ only in their table.
 */
import { Context, type Effect, type Option } from "effect"
import type { Owner, Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { RowLock, Stored } from "./MasterData.js"
import type { Partner, PartnerInput, PartnerKind } from "./Partner.js"

export class PartnerRepository extends Context.Tag("@wms/core/PartnerRepository")<PartnerRepository, {
  /** The partners of the kind visible in the scope, by id. */
  readonly list: (kind: PartnerKind, scope: Scope, window: ListWindow) => Effect.Effect<ReadonlyArray<Partner>>
  /** Looks a partner up by id, whoever owns it. */
  readonly find: (kind: PartnerKind, id: number, lock: RowLock) => Effect.Effect<Option.Option<Stored<Partner>>>
  /** Inserts a partner and returns its id. */
  readonly insert: (kind: PartnerKind, owner: Owner, input: PartnerInput) => Effect.Effect<number>
  /** Replaces the writable fields; false when the partner is gone. */
  readonly update: (kind: PartnerKind, id: number, input: PartnerInput) => Effect.Effect<boolean>
  /** Whether an order (customer) or a pre-advice (supplier) refers to the partner. */
  readonly isReferenced: (kind: PartnerKind, id: number) => Effect.Effect<boolean>
  readonly remove: (kind: PartnerKind, id: number) => Effect.Effect<void>
}>() {}
