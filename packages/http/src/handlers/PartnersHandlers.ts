import { HttpApiBuilder } from "@effect/platform"
import { Partners } from "@wms/core"
import { Effect } from "effect"
import { CurrentActor } from "../api/Security.js"
import { WarehouseApi } from "../Api.js"

export const CustomersHandlers = HttpApiBuilder.group(WarehouseApi, "customers", (handlers) =>
  Effect.gen(function*() {
    const { customers } = yield* Partners
    return handlers
      .handle("listCustomers", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => customers.list(actor, urlParams)))
      .handle("createCustomer", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.asVoid(customers.create(actor, payload))))
      .handle("getCustomer", ({ path }) => Effect.flatMap(CurrentActor, (actor) => customers.get(actor, path.id)))
      .handle("updateCustomer", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => customers.update(actor, path.id, payload)))
      .handle("deleteCustomer", ({ path }) => Effect.flatMap(CurrentActor, (actor) => customers.remove(actor, path.id)))
  }))

export const SuppliersHandlers = HttpApiBuilder.group(WarehouseApi, "suppliers", (handlers) =>
  Effect.gen(function*() {
    const { suppliers } = yield* Partners
    return handlers
      .handle("listSuppliers", ({ urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => suppliers.list(actor, urlParams)))
      .handle("createSupplier", ({ payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.asVoid(suppliers.create(actor, payload))))
      .handle("getSupplier", ({ path }) => Effect.flatMap(CurrentActor, (actor) => suppliers.get(actor, path.id)))
      .handle("updateSupplier", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => suppliers.update(actor, path.id, payload)))
      .handle("deleteSupplier", ({ path }) => Effect.flatMap(CurrentActor, (actor) => suppliers.remove(actor, path.id)))
  }))
