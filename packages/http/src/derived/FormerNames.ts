/**
 * The names the facade's methods had before they took their endpoints' (0.1): each the group and
 * endpoint it now is. Deprecated; removed in 0.3 (CHANGELOG).
 */
import type { EndpointName, GroupName } from "../Api.js"

/** An endpoint, by group and name. */
type Target = { readonly [G in GroupName]: readonly [G, EndpointName<G>] }[GroupName]

/** The former names by namespace. */
export const formerNames = {
  sites: {
    /** @deprecated Use `admin.listSites`. */
    list: ["admin", "listSites"],
    /** @deprecated Use `admin.createSite`. */
    create: ["admin", "createSite"],
    /** @deprecated Use `admin.getSiteSettings`. */
    settings: ["admin", "getSiteSettings"],
    /** @deprecated Use `admin.updateSiteSettings`. */
    updateSettings: ["admin", "updateSiteSettings"]
  },
  clients: {
    /** @deprecated Use `admin.listClients`. */
    list: ["admin", "listClients"],
    /** @deprecated Use `admin.createClient`. */
    create: ["admin", "createClient"]
  },
  users: {
    /** @deprecated Use `admin.listUsers`. */
    list: ["admin", "listUsers"],
    /** @deprecated Use `admin.createUser`. */
    create: ["admin", "createUser"]
  },
  customers: {
    /** @deprecated Use `customers.listCustomers`. */
    list: ["customers", "listCustomers"],
    /** @deprecated Use `customers.getCustomer`. */
    get: ["customers", "getCustomer"],
    /** @deprecated Use `customers.createCustomer`. */
    create: ["customers", "createCustomer"],
    /** @deprecated Use `customers.updateCustomer`. */
    update: ["customers", "updateCustomer"],
    /** @deprecated Use `customers.deleteCustomer`. */
    remove: ["customers", "deleteCustomer"]
  },
  suppliers: {
    /** @deprecated Use `suppliers.listSuppliers`. */
    list: ["suppliers", "listSuppliers"],
    /** @deprecated Use `suppliers.getSupplier`. */
    get: ["suppliers", "getSupplier"],
    /** @deprecated Use `suppliers.createSupplier`. */
    create: ["suppliers", "createSupplier"],
    /** @deprecated Use `suppliers.updateSupplier`. */
    update: ["suppliers", "updateSupplier"],
    /** @deprecated Use `suppliers.deleteSupplier`. */
    remove: ["suppliers", "deleteSupplier"]
  },
  carriers: {
    /** @deprecated Use `carriers.listCarriers`. */
    list: ["carriers", "listCarriers"],
    /** @deprecated Use `carriers.getCarrier`. */
    get: ["carriers", "getCarrier"],
    /** @deprecated Use `carriers.createCarrier`. */
    create: ["carriers", "createCarrier"],
    /** @deprecated Use `carriers.updateCarrier`. */
    update: ["carriers", "updateCarrier"],
    /** @deprecated Use `carriers.deleteCarrier`. */
    remove: ["carriers", "deleteCarrier"]
  },
  skus: {
    /** @deprecated Use `skus.listSkus`. */
    list: ["skus", "listSkus"],
    /** @deprecated Use `skus.getSku`. */
    get: ["skus", "getSku"],
    /** @deprecated Use `skus.createSku`. */
    create: ["skus", "createSku"],
    /** @deprecated Use `skus.updateSku`. */
    upsert: ["skus", "updateSku"]
  },
  skuGroups: {
    /** @deprecated Use `skuGroups.listSkuGroups`. */
    list: ["skuGroups", "listSkuGroups"],
    /** @deprecated Use `skuGroups.getSkuGroup`. */
    get: ["skuGroups", "getSkuGroup"],
    /** @deprecated Use `skuGroups.createSkuGroup`. */
    create: ["skuGroups", "createSkuGroup"],
    /** @deprecated Use `skuGroups.updateSkuGroup`. */
    update: ["skuGroups", "updateSkuGroup"],
    /** @deprecated Use `skuGroups.deleteSkuGroup`. */
    remove: ["skuGroups", "deleteSkuGroup"]
  },
  pickMethods: {
    /** @deprecated Use `pickMethods.listPickMethods`. */
    list: ["pickMethods", "listPickMethods"]
  },
  orders: {
    /** @deprecated Use `orders.listOrders`. */
    list: ["orders", "listOrders"],
    /** @deprecated Use `orders.getOrder`. */
    get: ["orders", "getOrder"],
    /** @deprecated Use `orders.createOrder`. */
    create: ["orders", "createOrder"],
    /** @deprecated Use `orders.updateOrder`. */
    update: ["orders", "updateOrder"],
    /** @deprecated Use `orders.deleteOrder`. */
    remove: ["orders", "deleteOrder"],
    /** @deprecated Use `orders.listOrderLines`. */
    lines: ["orders", "listOrderLines"],
    /** @deprecated Use `orders.getOrderLine`. */
    line: ["orders", "getOrderLine"],
    /** @deprecated Use `orders.addOrderLines`. */
    addLines: ["orders", "addOrderLines"],
    /** @deprecated Use `orders.updateOrderLine`. */
    updateLine: ["orders", "updateOrderLine"],
    /** @deprecated Use `orders.deleteOrderLine`. */
    removeLine: ["orders", "deleteOrderLine"],
    /** @deprecated Use `picking.ship`. */
    ship: ["picking", "ship"]
  },
  preadvices: {
    /** @deprecated Use `preAdvices.listPreAdvices`. */
    list: ["preAdvices", "listPreAdvices"],
    /** @deprecated Use `preAdvices.getPreAdvice`. */
    get: ["preAdvices", "getPreAdvice"],
    /** @deprecated Use `preAdvices.createPreAdvice`. */
    create: ["preAdvices", "createPreAdvice"],
    /** @deprecated Use `preAdvices.updatePreAdvice`. */
    update: ["preAdvices", "updatePreAdvice"],
    /** @deprecated Use `preAdvices.deletePreAdvice`. */
    remove: ["preAdvices", "deletePreAdvice"],
    /** @deprecated Use `preAdvices.listPreAdviceLines`. */
    lines: ["preAdvices", "listPreAdviceLines"],
    /** @deprecated Use `preAdvices.getPreAdviceLine`. */
    line: ["preAdvices", "getPreAdviceLine"],
    /** @deprecated Use `preAdvices.addPreAdviceLines`. */
    addLines: ["preAdvices", "addPreAdviceLines"],
    /** @deprecated Use `preAdvices.updatePreAdviceLine`. */
    updateLine: ["preAdvices", "updatePreAdviceLine"],
    /** @deprecated Use `preAdvices.deletePreAdviceLine`. */
    removeLine: ["preAdvices", "deletePreAdviceLine"],
    /** @deprecated Use `receiving.receive`. */
    receive: ["receiving", "receive"]
  },
  locations: {
    /** @deprecated Use `locations.listLocations`. */
    list: ["locations", "listLocations"],
    /** @deprecated Use `locations.getLocation`. */
    get: ["locations", "getLocation"],
    /** @deprecated Use `locations.createLocation`. */
    create: ["locations", "createLocation"],
    /** @deprecated Use `locations.updateLocation`. */
    replace: ["locations", "updateLocation"],
    /** @deprecated Use `locations.deleteLocation`. */
    remove: ["locations", "deleteLocation"]
  },
  movementTasks: {
    /** @deprecated Use `movementTasks.listMovementTasks`. */
    list: ["movementTasks", "listMovementTasks"],
    /** @deprecated Use `movementTasks.getMovementTask`. */
    get: ["movementTasks", "getMovementTask"],
    /** @deprecated Use `movementTasks.createMovementTask`. */
    create: ["movementTasks", "createMovementTask"],
    /** @deprecated Use `movementTasks.confirmMovementTask`. */
    confirm: ["movementTasks", "confirmMovementTask"],
    /** @deprecated Use `movementTasks.cancelMovementTask`. */
    cancel: ["movementTasks", "cancelMovementTask"],
    /** @deprecated Use `movementTasks.createPutawayTasks`. */
    putaway: ["movementTasks", "createPutawayTasks"]
  },
  counts: {
    /** @deprecated Use `counts.listCounts`. */
    list: ["counts", "listCounts"],
    /** @deprecated Use `counts.getCount`. */
    get: ["counts", "getCount"],
    /** @deprecated Use `counts.createCount`. */
    create: ["counts", "createCount"],
    /** @deprecated Use `counts.planCounts`. */
    plan: ["counts", "planCounts"],
    /** @deprecated Use `counts.releaseCount`. */
    release: ["counts", "releaseCount"],
    /** @deprecated Use `counts.recordCount`. */
    record: ["counts", "recordCount"],
    /** @deprecated Use `counts.approveCount`. */
    approve: ["counts", "approveCount"],
    /** @deprecated Use `counts.recountCount`. */
    recount: ["counts", "recountCount"],
    /** @deprecated Use `counts.cancelCount`. */
    cancel: ["counts", "cancelCount"]
  },
  pickFaces: {
    /** @deprecated Use `pickFaces.listPickFaces`. */
    list: ["pickFaces", "listPickFaces"],
    /** @deprecated Use `pickFaces.getPickFace`. */
    get: ["pickFaces", "getPickFace"],
    /** @deprecated Use `pickFaces.putPickFace`. */
    put: ["pickFaces", "putPickFace"],
    /** @deprecated Use `pickFaces.deletePickFace`. */
    remove: ["pickFaces", "deletePickFace"]
  },
  replenishment: {
    /** @deprecated Use `replenishment.runReplenishment`. */
    run: ["replenishment", "runReplenishment"]
  },
  waveDefinitions: {
    /** @deprecated Use `waveDefinitions.listWaveDefinitions`. */
    list: ["waveDefinitions", "listWaveDefinitions"],
    /** @deprecated Use `waveDefinitions.getWaveDefinition`. */
    get: ["waveDefinitions", "getWaveDefinition"],
    /** @deprecated Use `waveDefinitions.createWaveDefinition`. */
    create: ["waveDefinitions", "createWaveDefinition"],
    /** @deprecated Use `waveDefinitions.updateWaveDefinition`. */
    update: ["waveDefinitions", "updateWaveDefinition"],
    /** @deprecated Use `waveDefinitions.deleteWaveDefinition`. */
    remove: ["waveDefinitions", "deleteWaveDefinition"]
  },
  tasks: {
    /** @deprecated Use `picking.tasks`. */
    list: ["picking", "tasks"],
    /** @deprecated Use `picking.confirm`. */
    confirm: ["picking", "confirm"]
  },
  webhooks: {
    /** @deprecated Use `webhooks.listWebhooks`. */
    list: ["webhooks", "listWebhooks"],
    /** @deprecated Use `webhooks.getWebhook`. */
    get: ["webhooks", "getWebhook"],
    /** @deprecated Use `webhooks.createWebhook`. */
    create: ["webhooks", "createWebhook"],
    /** @deprecated Use `webhooks.updateWebhook`. */
    update: ["webhooks", "updateWebhook"],
    /** @deprecated Use `webhooks.deleteWebhook`. */
    remove: ["webhooks", "deleteWebhook"],
    /** @deprecated Use `webhooks.listWebhookDeliveries`. */
    deliveries: ["webhooks", "listWebhookDeliveries"]
  }
} as const satisfies { readonly [Namespace: string]: { readonly [Method: string]: Target } }
