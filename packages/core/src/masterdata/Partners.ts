/**
 * Customers and suppliers (§2.8): one shape, one set of rules, kept apart by their kind. Each is
 * owned by the site and client of the scope it was created in. Addresses live on the record
 * itself, so `address_id` is the record's own `id`.
 */
import { Effect, Option, Schema } from "effect"
import { Conflict, NotFound } from "../shared/Errors.js"
import { type ListWindow, OptionalMasterText, RequiredText, type RowLock } from "./MasterData.js"
import { PartnerRepository } from "./PartnerRepository.js"
import { type Actor, canSee, ownerOf } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"

/** Which of the two kinds of partner. */
export type PartnerKind = "customer" | "supplier"

/** A customer or supplier as lists show it. */
export const Partner = Schema.Struct({
  id: Schema.Number,
  address_id: Schema.Number,
  name: Schema.String,
  attention: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  zipcode: Schema.NullOr(Schema.String),
  town: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  website: Schema.NullOr(Schema.String)
})
export type Partner = typeof Partner.Type

/** The single-record view: the record and its `address_type`, `"customer"` or `"supplier"`. */
export const PartnerDetail = Schema.Struct({
  ...Partner.fields,
  address_type: Schema.Literal("customer", "supplier")
})
export type PartnerDetail = typeof PartnerDetail.Type

/** The body of POST and PUT: a PUT replaces every field, an absent optional one becomes `null`. */
export const PartnerInput = Schema.Struct({
  name: RequiredText,
  attention: OptionalMasterText,
  address: OptionalMasterText,
  zipcode: OptionalMasterText,
  town: OptionalMasterText,
  country: OptionalMasterText,
  phone: OptionalMasterText,
  website: OptionalMasterText
})
export type PartnerInput = typeof PartnerInput.Type

const wording = {
  customer: { title: "Customer", usedBy: "orders" },
  supplier: { title: "Supplier", usedBy: "pre-advices" }
} as const

export class Partners extends Effect.Service<Partners>()("@wms/core/Partners", {
  effect: Effect.gen(function*() {
    const repository = yield* PartnerRepository
    const { atomically } = yield* Transactor

    const operations = (kind: PartnerKind) => {
      const { title, usedBy } = wording[kind]
      const notFound = (id: number) => new NotFound({ message: `${title} with id ${id} not found` })

      const visible = (actor: Actor, id: number, lock: RowLock) =>
        Effect.flatMap(repository.find(kind, id, lock), (found) =>
          Option.isSome(found) && canSee(actor.scope, found.value.owner)
            ? Effect.succeed(found.value.record)
            : Effect.fail(notFound(id)))

      return {
        list: Effect.fnUntraced(function*(actor: Actor, window: ListWindow = {}) {
          return yield* repository.list(kind, actor.scope, window)
        }),
        get: Effect.fnUntraced(function*(actor: Actor, id: number) {
          const record = yield* visible(actor, id, "none")
          return { ...record, address_type: kind } satisfies PartnerDetail
        }),
        create: Effect.fnUntraced(function*(actor: Actor, input: PartnerInput) {
          return yield* repository.insert(kind, ownerOf(actor.scope), input)
        }, atomically),
        update: Effect.fnUntraced(function*(actor: Actor, id: number, input: PartnerInput) {
          yield* visible(actor, id, "none")
          if (!(yield* repository.update(kind, id, input))) return yield* notFound(id)
        }, atomically),
        remove: Effect.fnUntraced(function*(actor: Actor, id: number) {
          // The lock keeps an order or pre-advice from taking the partner while it is checked.
          yield* visible(actor, id, "update")
          if (yield* repository.isReferenced(kind, id)) {
            return yield* new Conflict({ message: `${title} ${id} is used by ${usedBy}` })
          }
          yield* repository.remove(kind, id)
        }, atomically)
      }
    }

    return { customers: operations("customer"), suppliers: operations("supplier") } as const
  })
}) {}
