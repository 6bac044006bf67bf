import { Partners } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { CustomersApi, SuppliersApi } from "./PartnersApi.js"

export const CustomersTable = Effect.map(Partners, ({ customers }) => ({
  listCustomers: (actor, { urlParams }) => customers.list(actor, urlParams),
  createCustomer: (actor, { payload }) => customers.create(actor, payload),
  getCustomer: (actor, { path }) => customers.get(actor, path.id),
  updateCustomer: (actor, { path, payload }) => customers.update(actor, path.id, payload),
  deleteCustomer: (actor, { path }) => customers.remove(actor, path.id)
} satisfies Table<typeof CustomersApi>))

export const SuppliersTable = Effect.map(Partners, ({ suppliers }) => ({
  listSuppliers: (actor, { urlParams }) => suppliers.list(actor, urlParams),
  createSupplier: (actor, { payload }) => suppliers.create(actor, payload),
  getSupplier: (actor, { path }) => suppliers.get(actor, path.id),
  updateSupplier: (actor, { path, payload }) => suppliers.update(actor, path.id, payload),
  deleteSupplier: (actor, { path }) => suppliers.remove(actor, path.id)
} satisfies Table<typeof SuppliersApi>))
