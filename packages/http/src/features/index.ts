/** Every feature's table by the name of its group: the `HttpApi` handlers and the facade are built from them. */
import { AdminTable } from "./admin/AdminHandlers.js"
import { CarriersTable } from "./carriers/CarriersHandlers.js"
import { CountsTable } from "./counts/CountsHandlers.js"
import { InventoryTable } from "./inventory/InventoryHandlers.js"
import { LocationsTable } from "./locations/LocationsHandlers.js"
import { MovementTasksTable } from "./movement-tasks/MovementTasksHandlers.js"
import { OrdersTable } from "./orders/OrdersHandlers.js"
import { CustomersTable, SuppliersTable } from "./partners/PartnersHandlers.js"
import { PickFacesTable, ReplenishmentTable } from "./pick-faces/PickFacesHandlers.js"
import { PickingTable } from "./picking/PickingHandlers.js"
import { PreAdvicesTable } from "./pre-advices/PreAdvicesHandlers.js"
import { ReceivingTable } from "./receiving/ReceivingHandlers.js"
import { PickMethodsTable, SkuGroupsTable, SkusTable } from "./skus/SkusHandlers.js"
import { WaveDefinitionsTable } from "./wave-definitions/WaveDefinitionsHandlers.js"
import { WavesTable } from "./waves/WavesHandlers.js"
import { WebhooksTable } from "./webhooks/WebhooksHandlers.js"

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
