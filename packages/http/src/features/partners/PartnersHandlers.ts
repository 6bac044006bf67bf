import { Partners } from "@wms/core"
import { Effect } from "effect"
import type { Table } from "../Table.js"
import type { CustomersApi, SuppliersApi } from "./PartnersApi.js"

export const CustomersTable = Effect.map(Partners, ({ customers }) => ({
  listCustomers: (actor, { urlParams }) => customers.listCustomers(actor, urlParams),
  createCustomer: (actor, { payload }) => customers.createCustomer(actor, payload),
  getCustomer: (actor, { path }) => customers.getCustomer(actor, path.id),
  updateCustomer: (actor, { path, payload }) => customers.updateCustomer(actor, path.id, payload),
  deleteCustomer: (actor, { path }) => customers.deleteCustomer(actor, path.id)
} satisfies Table<typeof CustomersApi>))

export const SuppliersTable = Effect.map(Partners, ({ suppliers }) => ({
  listSuppliers: (actor, { urlParams }) => suppliers.listSuppliers(actor, urlParams),
  createSupplier: (actor, { payload }) => suppliers.createSupplier(actor, payload),
  getSupplier: (actor, { path }) => suppliers.getSupplier(actor, path.id),
  updateSupplier: (actor, { path, payload }) => suppliers.updateSupplier(actor, path.id, payload),
  deleteSupplier: (actor, { path }) => suppliers.deleteSupplier(actor, path.id)
} satisfies Table<typeof SuppliersApi>))
