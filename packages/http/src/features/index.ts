/**
 * The features of the API, one line each, in the order of its document: the declaration
 * (`Api.ts`), the `HttpApi` handlers (`derived/HttpApiLive.ts`) and the facade (`derived/Facade.ts`)
 * are built from this list, and the hot routes (`derived/HotRoutes.ts`) from the orders table.
 */
import { AdminApi } from "./admin/AdminApi.js"
import { AuthApi } from "./auth/AuthApi.js"
import { CarriersApi } from "./carriers/CarriersApi.js"
import { CountsApi } from "./counts/CountsApi.js"
import { feature } from "./Feature.js"
import { HoldsApi } from "./holds/HoldsApi.js"
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
import { ReturnsApi } from "./returns/ReturnsApi.js"
import { ShippingUnitsApi } from "./shipping-units/ShippingUnitsApi.js"
import { PickMethodsApi, SkuGroupsApi, SkusApi } from "./skus/SkusApi.js"
import { SystemApi } from "./system/SystemApi.js"
import { TransfersApi } from "./transfers/TransfersApi.js"
import { WaveDefinitionsApi } from "./wave-definitions/WaveDefinitionsApi.js"
import { WavesApi } from "./waves/WavesApi.js"
import { WebhooksApi } from "./webhooks/WebhooksApi.js"

export const features = [
  feature(SystemApi, () => import("./system/SystemHandlers.js").then((_) => _.SystemHandlers)),
  feature(AuthApi, () => import("./auth/AuthHandlers.js").then((_) => _.AuthHandlers)),
  feature(AdminApi, () => import("./admin/AdminHandlers.js").then((_) => _.AdminHandlers)),
  feature(CustomersApi, () => import("./partners/PartnersHandlers.js").then((_) => _.CustomersHandlers)),
  feature(SuppliersApi, () => import("./partners/PartnersHandlers.js").then((_) => _.SuppliersHandlers)),
  feature(CarriersApi, () => import("./carriers/CarriersHandlers.js").then((_) => _.CarriersHandlers)),
  feature(SkusApi, () => import("./skus/SkusHandlers.js").then((_) => _.SkusHandlers)),
  feature(SkuGroupsApi, () => import("./skus/SkusHandlers.js").then((_) => _.SkuGroupsHandlers)),
  feature(PickMethodsApi, () => import("./skus/SkusHandlers.js").then((_) => _.PickMethodsHandlers)),
  feature(OrdersApi, () => import("./orders/OrdersHandlers.js").then((_) => _.OrdersHandlers)),
  feature(PreAdvicesApi, () => import("./pre-advices/PreAdvicesHandlers.js").then((_) => _.PreAdvicesHandlers)),
  feature(InventoryApi, () => import("./inventory/InventoryHandlers.js").then((_) => _.InventoryHandlers)),
  feature(ReceivingApi, () => import("./receiving/ReceivingHandlers.js").then((_) => _.ReceivingHandlers)),
  feature(LocationsApi, () => import("./locations/LocationsHandlers.js").then((_) => _.LocationsHandlers)),
  feature(
    MovementTasksApi,
    () => import("./movement-tasks/MovementTasksHandlers.js").then((_) => _.MovementTasksHandlers)
  ),
  feature(CountsApi, () => import("./counts/CountsHandlers.js").then((_) => _.CountsHandlers)),
  feature(PickFacesApi, () => import("./pick-faces/PickFacesHandlers.js").then((_) => _.PickFacesHandlers)),
  feature(ReplenishmentApi, () => import("./pick-faces/PickFacesHandlers.js").then((_) => _.ReplenishmentHandlers)),
  feature(
    WaveDefinitionsApi,
    () => import("./wave-definitions/WaveDefinitionsHandlers.js").then((_) => _.WaveDefinitionsHandlers)
  ),
  feature(WavesApi, () => import("./waves/WavesHandlers.js").then((_) => _.WavesHandlers)),
  feature(PickingApi, () => import("./picking/PickingHandlers.js").then((_) => _.PickingHandlers)),
  feature(
    ShippingUnitsApi,
    () => import("./shipping-units/ShippingUnitsHandlers.js").then((_) => _.ShippingUnitsHandlers)
  ),
  feature(HoldsApi, () => import("./holds/HoldsHandlers.js").then((_) => _.HoldsHandlers)),
  feature(TransfersApi, () => import("./transfers/TransfersHandlers.js").then((_) => _.TransfersHandlers)),
  feature(ReturnsApi, () => import("./returns/ReturnsHandlers.js").then((_) => _.ReturnsHandlers)),
  feature(WebhooksApi, () => import("./webhooks/WebhooksHandlers.js").then((_) => _.WebhooksHandlers)),
  feature(ImportExportApi, () => import("./import-export/ImportExportHandlers.js").then((_) => _.ImportExportHandlers))
] as const
