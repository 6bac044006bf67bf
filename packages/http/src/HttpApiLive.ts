/**
 * The API with its handlers, as a layer that any @effect/platform server can serve: the bundled
 * one (`Server.ts`) or an application's own, with `HttpApiBuilder.serve()` or `toWebHandler`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Layer } from "effect"
import { WarehouseApi } from "./Api.js"
import * as ErrorResponses from "./ErrorResponses.js"
import { AdminHandlers } from "./handlers/AdminHandlers.js"
import { AuthHandlers } from "./handlers/AuthHandlers.js"
import { CarriersHandlers } from "./handlers/CarriersHandlers.js"
import { InventoryHandlers } from "./handlers/InventoryHandlers.js"
import { ReceivingHandlers } from "./handlers/ReceivingHandlers.js"
import { OrdersHandlers } from "./handlers/OrdersHandlers.js"
import { CustomersHandlers, SuppliersHandlers } from "./handlers/PartnersHandlers.js"
import { PickingHandlers } from "./handlers/PickingHandlers.js"
import { PreAdvicesHandlers } from "./handlers/PreAdvicesHandlers.js"
import { AuthorizationLive, TokenAuthenticationLive } from "./handlers/SecurityLive.js"
import { PickMethodsHandlers, SkuGroupsHandlers, SkusHandlers } from "./handlers/SkusHandlers.js"
import { SystemHandlers } from "./handlers/SystemHandlers.js"
import { WaveDefinitionsHandlers } from "./handlers/WaveDefinitionsHandlers.js"
import { WavesHandlers } from "./handlers/WavesHandlers.js"

/** Needs the warehouse services (`Warehouse.layer`) and `Tokens`. */
export const layer = HttpApiBuilder.api(WarehouseApi).pipe(
  Layer.provide([
    SystemHandlers,
    AuthHandlers,
    AdminHandlers,
    OrdersHandlers,
    PreAdvicesHandlers,
    CustomersHandlers,
    SuppliersHandlers,
    CarriersHandlers,
    SkusHandlers,
    SkuGroupsHandlers,
    PickMethodsHandlers,
    InventoryHandlers,
    ReceivingHandlers,
    WaveDefinitionsHandlers,
    WavesHandlers,
    PickingHandlers
  ]),
  Layer.provide([AuthorizationLive, TokenAuthenticationLive, ErrorResponses.layer])
)
