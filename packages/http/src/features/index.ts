/**
 * The features of the API, one line each, in the order of its document: the declaration
 * (`Api.ts`), the `HttpApi` handlers (`derived/HttpApiLive.ts`), the facade (`derived/Facade.ts`)
 * and the hot routes (`derived/HotRoutes.ts`) are built from this list.
 */
import { AdminApi } from "./admin/AdminApi.js"
import { AuthApi } from "./auth/AuthApi.js"
import { CarriersApi } from "./carriers/CarriersApi.js"
import { CountsApi } from "./counts/CountsApi.js"
import { feature } from "./Feature.js"
import { ImportExportApi } from "./import-export/ImportExportApi.js"
import { InventoryApi } from "./inventory/InventoryApi.js"
import { LocationsApi } from "./locations/LocationsApi.js"
import { MovementTasksApi } from "./movement-tasks/MovementTasksApi.js"
import { OrdersApi } from "./orders/OrdersApi.js"
import { CustomersApi, SuppliersApi } from "./partners/PartnersApi.js"
import { PickFacesApi, ReplenishmentApi } from "./pick-faces/PickFacesApi.js"
import { PickingApi } from "./picking/PickingApi.js"
import { PreAdvicesApi } from "./pre-advices/PreAdvicesApi.js"
import { ReceivingApi } from "./receiving/ReceivingApi.js"
import { PickMethodsApi, SkuGroupsApi, SkusApi } from "./skus/SkusApi.js"
import { SystemApi } from "./system/SystemApi.js"
import { WaveDefinitionsApi } from "./wave-definitions/WaveDefinitionsApi.js"
import { WavesApi } from "./waves/WavesApi.js"
import { WebhooksApi } from "./webhooks/WebhooksApi.js"

export const features = [
  feature(SystemApi, () => import("./system/SystemHandlers.js").then((_) => _.SystemHandlers)),
  feature(AuthApi, () => import("./auth/AuthHandlers.js").then((_) => _.AuthHandlers)),
  feature(AdminApi, () => import("./admin/AdminHandlers.js").then((_) => _.AdminTable)),
  feature(CustomersApi, () => import("./partners/PartnersHandlers.js").then((_) => _.CustomersTable)),
  feature(SuppliersApi, () => import("./partners/PartnersHandlers.js").then((_) => _.SuppliersTable)),
  feature(CarriersApi, () => import("./carriers/CarriersHandlers.js").then((_) => _.CarriersTable)),
  feature(SkusApi, () => import("./skus/SkusHandlers.js").then((_) => _.SkusTable)),
  feature(SkuGroupsApi, () => import("./skus/SkusHandlers.js").then((_) => _.SkuGroupsTable)),
  feature(PickMethodsApi, () => import("./skus/SkusHandlers.js").then((_) => _.PickMethodsTable)),
  feature(OrdersApi, () => import("./orders/OrdersHandlers.js").then((_) => _.OrdersTable)),
  feature(PreAdvicesApi, () => import("./pre-advices/PreAdvicesHandlers.js").then((_) => _.PreAdvicesTable)),
  feature(InventoryApi, () => import("./inventory/InventoryHandlers.js").then((_) => _.InventoryTable)),
  feature(ReceivingApi, () => import("./receiving/ReceivingHandlers.js").then((_) => _.ReceivingTable)),
  feature(LocationsApi, () => import("./locations/LocationsHandlers.js").then((_) => _.LocationsTable)),
  feature(
    MovementTasksApi,
    () => import("./movement-tasks/MovementTasksHandlers.js").then((_) => _.MovementTasksTable)
  ),
  feature(CountsApi, () => import("./counts/CountsHandlers.js").then((_) => _.CountsTable)),
  feature(PickFacesApi, () => import("./pick-faces/PickFacesHandlers.js").then((_) => _.PickFacesTable)),
  feature(ReplenishmentApi, () => import("./pick-faces/PickFacesHandlers.js").then((_) => _.ReplenishmentTable)),
  feature(
    WaveDefinitionsApi,
    () => import("./wave-definitions/WaveDefinitionsHandlers.js").then((_) => _.WaveDefinitionsTable)
  ),
  feature(WavesApi, () => import("./waves/WavesHandlers.js").then((_) => _.WavesTable)),
  feature(PickingApi, () => import("./picking/PickingHandlers.js").then((_) => _.PickingTable)),
  feature(WebhooksApi, () => import("./webhooks/WebhooksHandlers.js").then((_) => _.WebhooksTable)),
  feature(ImportExportApi, () => import("./import-export/ImportExportHandlers.js").then((_) => _.ImportExportHandlers))
] as const
