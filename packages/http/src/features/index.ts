/** Every feature's table by the name of its group: the `HttpApi` handlers and the facade are built from them. */
import { AdminTable } from "./AdminHandlers.js"
import { CarriersTable } from "./CarriersHandlers.js"
import { CountsTable } from "./CountsHandlers.js"
import { InventoryTable } from "./InventoryHandlers.js"
import { LocationsTable } from "./LocationsHandlers.js"
import { MovementTasksTable } from "./MovementTasksHandlers.js"
import { OrdersTable } from "./OrdersHandlers.js"
import { CustomersTable, SuppliersTable } from "./PartnersHandlers.js"
import { PickFacesTable, ReplenishmentTable } from "./PickFacesHandlers.js"
import { PickingTable } from "./PickingHandlers.js"
import { PreAdvicesTable } from "./PreAdvicesHandlers.js"
import { ReceivingTable } from "./ReceivingHandlers.js"
import { PickMethodsTable, SkuGroupsTable, SkusTable } from "./SkusHandlers.js"
import { WaveDefinitionsTable } from "./WaveDefinitionsHandlers.js"
import { WavesTable } from "./WavesHandlers.js"
import { WebhooksTable } from "./WebhooksHandlers.js"

export const tables = {
  admin: AdminTable,
  customers: CustomersTable,
  suppliers: SuppliersTable,
  carriers: CarriersTable,
  skus: SkusTable,
  skugroups: SkuGroupsTable,
  pickmethods: PickMethodsTable,
  orders: OrdersTable,
  preadvices: PreAdvicesTable,
  inventory: InventoryTable,
  receiving: ReceivingTable,
  locations: LocationsTable,
  movementTasks: MovementTasksTable,
  counts: CountsTable,
  pickFaces: PickFacesTable,
  replenishment: ReplenishmentTable,
  waveDefinitions: WaveDefinitionsTable,
  waves: WavesTable,
  picking: PickingTable,
  webhooks: WebhooksTable
}
