import { Partners } from "@wms/core"
import type { PartnerInput } from "@wms/core"
import { Effect } from "effect"
import { type Body, byNumber, windowed } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
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

/** The facade's methods of `customers`: how each one's arguments make its endpoint's input. */
export const CustomersMethods = {
  listCustomers: windowed,
  getCustomer: byNumber,
  /** Resolves to the new record's id. */
  createCustomer: (payload: Body<typeof PartnerInput>) => ({ payload }),
  updateCustomer: (id: number, payload: Body<typeof PartnerInput>) => ({ ...byNumber(id), payload }),
  deleteCustomer: byNumber
} satisfies Methods<typeof CustomersApi>

export const CustomersHandlers = { table: CustomersTable, methods: CustomersMethods }

/** The facade's methods of `suppliers`: how each one's arguments make its endpoint's input. */
export const SuppliersMethods = {
  listSuppliers: windowed,
  getSupplier: byNumber,
  /** Resolves to the new record's id. */
  createSupplier: (payload: Body<typeof PartnerInput>) => ({ payload }),
  updateSupplier: (id: number, payload: Body<typeof PartnerInput>) => ({ ...byNumber(id), payload }),
  deleteSupplier: byNumber
} satisfies Methods<typeof SuppliersApi>

export const SuppliersHandlers = { table: SuppliersTable, methods: SuppliersMethods }
