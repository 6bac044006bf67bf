/**
 * Customers and suppliers (§2.8): one shape, one set of rules, kept apart by their kind. Each is
 * owned by the site and client of the scope it was created in. Addresses live on the record
 * itself, so `address_id` is the record's own `id`.
 */
import { type Cause, Effect, Option } from "effect"
import { type Actor, canSee, ownerOf } from "../shared/Tenancy.js"
import { Transactor } from "../shared/Transactor.js"
import type { ListWindow } from "../shared/Window.js"
import { CustomerInUse, CustomerNotFound, SupplierInUse, SupplierNotFound } from "./Errors.js"
import type { RowLock } from "./MasterData.js"
import type { PartnerDetail, PartnerInput, PartnerKind } from "./Partner.js"
import { PartnerRepository } from "./PartnerRepository.js"

/** The failures of one kind: its record is missing, or it cannot be deleted because others name it. */
interface Failures<Missing extends Cause.YieldableError, Used extends Cause.YieldableError> {
  readonly notFound: (id: number) => Missing
  readonly inUse: (id: number) => Used
}

export class Partners extends Effect.Service<Partners>()("@wms/core/Partners", {
  effect: Effect.gen(function*() {
    const repository = yield* PartnerRepository
    const { atomically } = yield* Transactor

    const operations = <Missing extends Cause.YieldableError, Used extends Cause.YieldableError>(
      kind: PartnerKind,
      { inUse, notFound }: Failures<Missing, Used>
    ) => {
      const visible = (actor: Actor, id: number, lock: RowLock) =>
        Effect.flatMap(
          repository.find(kind, id, lock),
          (found) =>
            Option.isSome(found) && canSee(actor.scope, found.value.owner)
              ? Effect.succeed(found.value.record)
              : Effect.fail(notFound(id))
        )

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
          if (yield* repository.isReferenced(kind, id)) return yield* inUse(id)
          yield* repository.remove(kind, id)
        }, atomically)
      }
    }

    const customers = operations("customer", {
      notFound: (customerId) => new CustomerNotFound({ customerId }),
      inUse: (customerId) => new CustomerInUse({ customerId })
    })
    const suppliers = operations("supplier", {
      notFound: (supplierId) => new SupplierNotFound({ supplierId }),
      inUse: (supplierId) => new SupplierInUse({ supplierId })
    })
    return {
      customers: {
        listCustomers: customers.list,
        getCustomer: customers.get,
        createCustomer: customers.create,
        updateCustomer: customers.update,
        deleteCustomer: customers.remove,
        /** @deprecated Use `listCustomers`. */
        list: customers.list,
        /** @deprecated Use `getCustomer`. */
        get: customers.get,
        /** @deprecated Use `createCustomer`. */
        create: customers.create,
        /** @deprecated Use `updateCustomer`. */
        update: customers.update,
        /** @deprecated Use `deleteCustomer`. */
        remove: customers.remove
      },
      suppliers: {
        listSuppliers: suppliers.list,
        getSupplier: suppliers.get,
        createSupplier: suppliers.create,
        updateSupplier: suppliers.update,
        deleteSupplier: suppliers.remove,
        /** @deprecated Use `listSuppliers`. */
        list: suppliers.list,
        /** @deprecated Use `getSupplier`. */
        get: suppliers.get,
        /** @deprecated Use `createSupplier`. */
        create: suppliers.create,
        /** @deprecated Use `updateSupplier`. */
        update: suppliers.update,
        /** @deprecated Use `deleteSupplier`. */
        remove: suppliers.remove
      }
    } as const
  })
}) {}
