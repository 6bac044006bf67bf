import { assert, describe, it } from "@effect/vitest"
import * as Core from "@wms/core"
import {
  CompanyPrefixMissing,
  ContentHeld,
  HoldNotFound,
  HoldWrongState,
  OrderNotPacked,
  OrderNotShipped,
  OrderPackingClosed,
  OrderUnitsOpen,
  PackedExceedsPicked,
  ReturnExceedsShipped,
  ReturnExists,
  ReturnHasReceipts,
  ReturnNotFound,
  ReturnNothingReceived,
  ReturnOfTransfer,
  ReturnStatusRefuses,
  ShippingUnitCarriesOpen,
  ShippingUnitEmpty,
  ShippingUnitLineNotFound,
  ShippingUnitNotFound,
  ShippingUnitNotOpen,
  ShippingUnitShipped,
  SsccSerialsExhausted,
  SsccTaken,
  TransferInClientScope,
  TransferPreAdviceNotDeletable,
  TransferSkuMissing
} from "@wms/core"
import {
  CarrierInUse,
  CarrierNotFound,
  ClientExists,
  Conflict,
  ContentFull,
  ContentNotAtReceiving,
  ContentNotFound,
  ContentUnavailable,
  CountBelowTasked,
  CountNotFound,
  CountWrongState,
  CustomerInUse,
  CustomerNotFound,
  Forbidden,
  invalidField,
  isConflict,
  isForbidden,
  isInvalidInput,
  isNotFound,
  isUnauthenticated,
  isWarehouseError,
  LastActiveAdmin,
  LocationAlreadyCounted,
  LocationBeingCounted,
  LocationExists,
  LocationFull,
  LocationHasInbound,
  LocationInUse,
  LocationNotFound,
  LocationStatusRefuses,
  LostAndFoundItemNotFound,
  MovementTaskClosed,
  MovementTaskNotFound,
  NotAPickFace,
  NotFound,
  NotFulfillmentSite,
  OrderExists,
  OrderLineExists,
  OrderLineNotFound,
  OrderLineNumbersExhausted,
  OrderNotDeletable,
  OrderNotFound,
  OrderNothingPicked,
  OrderNotReleased,
  OrderPickingStarted,
  OrderShipped,
  OrderTasksOpen,
  PickFaceNotFound,
  PreAdviceExists,
  PreAdviceLineExists,
  PreAdviceLineNotFound,
  PreAdviceLineNumbersExhausted,
  PreAdviceNotFound,
  PreAdviceNothingToReceive,
  PreAdviceNotOpen,
  PreAdviceNotTransfer,
  SiteExists,
  SiteNotFound,
  SkuExists,
  SkuGroupInUse,
  SkuGroupNotFound,
  SkuNotFound,
  StockShort,
  SupplierInUse,
  SupplierNotFound,
  TaskNotFound,
  TransactionNotFound,
  Unauthenticated,
  UserExists,
  UserNotFound,
  type WarehouseError,
  WaveDefinitionNotFound,
  WaveNotFound,
  WavePickingStarted,
  WaveStarted,
  WebhookNotFound
} from "@wms/core"
import { Effect } from "effect"

// Every failure of the core with the documented text, the tag and the category it must have.
const documented: ReadonlyArray<readonly [WarehouseError, string, string]> = [
  [new SiteExists({ siteId: "main" }), "Conflict", "Site main already exists"],
  [new SiteNotFound({ siteId: "main" }), "NotFound", "Site with id main not found"],
  [new NotFulfillmentSite({ siteId: "main" }), "Conflict", "Site main is not a fulfillment site"],
  [new ClientExists({ clientId: "acme" }), "Conflict", "Client acme already exists"],
  [new UserNotFound({ userId: "u-1" }), "NotFound", "User u-1 not found"],
  [new UserExists({ email: "a@b.test" }), "Conflict", "User with email a@b.test already exists"],
  [new LastActiveAdmin({ userId: "u-1" }), "Conflict", "User u-1 is the last active admin"],
  [new CustomerNotFound({ customerId: 7 }), "NotFound", "Customer with id 7 not found"],
  [new CustomerInUse({ customerId: 7 }), "Conflict", "Customer 7 is used by orders"],
  [new SupplierNotFound({ supplierId: 7 }), "NotFound", "Supplier with id 7 not found"],
  [new SupplierInUse({ supplierId: 7 }), "Conflict", "Supplier 7 is used by pre-advices"],
  [new CarrierNotFound({ carrierId: 7 }), "NotFound", "Carrier with id 7 not found"],
  [new CarrierInUse({ carrierId: 7 }), "Conflict", "Carrier 7 is used by orders"],
  [new SkuGroupNotFound({ skuGroupId: "G1" }), "NotFound", "SKU group with id G1 not found"],
  [new SkuGroupInUse({ skuGroupId: "G1" }), "Conflict", "SKU group G1 is used by SKUs"],
  [new SkuNotFound({ skuId: "APPLE" }), "NotFound", "SKU with id APPLE not found"],
  [new SkuExists({ skuId: "APPLE" }), "Conflict", "SKU with id APPLE already exists"],
  [new OrderNotFound({ orderId: "SO-1" }), "NotFound", "Order with OrderID SO-1 not found"],
  [new OrderExists({ orderId: "SO-1" }), "Conflict", "Order with OrderID SO-1 already exists"],
  [new OrderLineNotFound({ orderId: "SO-1", line: 3 }), "NotFound", "Line 3 of order SO-1 not found"],
  [new OrderLineExists({ orderId: "SO-1", line: 3 }), "Conflict", "Line 3 of order SO-1 already exists"],
  [
    new OrderLineNumbersExhausted({ orderId: "SO-1" }),
    "Conflict",
    "Order with OrderID SO-1 has no line number left"
  ],
  [
    new OrderNotReleased({ orderId: "SO-1", status: "Allocated", action: "its lines can change" }),
    "Conflict",
    "Order with OrderID SO-1 is Allocated: its lines can change only while it is Released"
  ],
  [
    new OrderNotDeletable({ orderId: "SO-1", status: "In Progress" }),
    "Conflict",
    "Order with OrderID SO-1 is In Progress: it can be deleted only until picking starts"
  ],
  [
    new OrderPickingStarted({ orderId: "SO-1" }),
    "Conflict",
    "Order with OrderID SO-1 cannot be deleted: picking has started"
  ],
  [new TaskNotFound({ taskId: 4 }), "NotFound", "Task with id 4 not found"],
  [new OrderShipped({ orderId: "SO-1" }), "Conflict", "Order with OrderID SO-1 is already shipped"],
  [new OrderTasksOpen({ orderId: "SO-1" }), "Conflict", "Order with OrderID SO-1 still has open tasks"],
  [new OrderNothingPicked({ orderId: "SO-1" }), "Conflict", "Order with OrderID SO-1 has nothing picked"],
  [new ShippingUnitNotFound({ unitId: 4 }), "NotFound", "Shipping unit 4 not found"],
  [new HoldNotFound({ holdId: 4 }), "NotFound", "Hold 4 not found"],
  [new HoldWrongState({ holdId: 4, status: "Released" }), "Conflict", "Hold 4 is Released"],
  [
    new ContentHeld({ contentId: 9, holdId: 4 }),
    "Conflict",
    "Content 9 is held by hold 4: it may move only to a Quarantine location"
  ],
  [new CompanyPrefixMissing({ siteId: "main" }), "Conflict", "Site main has no gs1_company_prefix"],
  [
    new SsccSerialsExhausted({ siteId: "main", companyPrefix: "1234567890" }),
    "Conflict",
    "Site main has used every SSCC serial of company prefix 1234567890"
  ],
  [new SsccTaken({ sscc: "106141411234567897" }), "Conflict", "SSCC 106141411234567897 is in use on the site"],
  [
    new PackedExceedsPicked({ orderId: "SO-1", line: 2, picked: 4, packed: 3, qty: 2 }),
    "Conflict",
    "Line 2 of order SO-1 has 4 picked and 3 packed: 2 more exceeds what was picked"
  ],
  [
    new ShippingUnitNotOpen({ unitId: 4, status: "Complete" }),
    "Conflict",
    "Shipping unit 4 is Complete: its contents cannot change"
  ],
  [new ShippingUnitShipped({ unitId: 4 }), "Conflict", "Shipping unit 4 is shipped"],
  [
    new TransferSkuMissing({ skuId: "A", siteId: "north" }),
    "Conflict",
    "SKU A does not exist at site north, the transfer's destination"
  ],
  [
    new TransferInClientScope({ clientId: "c1" }),
    "Conflict",
    "A transfer moves a site's own stock: it cannot be made in the scope of client c1"
  ],
  [
    new TransferPreAdviceNotDeletable({ preAdviceId: "TR-main-T1" }),
    "Conflict",
    "PreAdvice with PreAdviceID TR-main-T1 came from a transfer and cannot be deleted; its close writes off what was not received"
  ],
  [
    new PreAdviceNotTransfer({ preAdviceId: "PA-1" }),
    "Conflict",
    "PreAdvice with PreAdviceID PA-1 was not made by a transfer: only a transfer's pre-advice can be closed"
  ],
  [new ShippingUnitEmpty({ unitId: 4 }), "Conflict", "Shipping unit 4 is empty"],
  [new ShippingUnitCarriesOpen({ unitId: 4, cartonId: 5 }), "Conflict", "Shipping unit 4 carries open carton 5"],
  [new ShippingUnitLineNotFound({ unitId: 4, orderLine: 2 }), "NotFound", "Shipping unit 4 holds no order line 2"],
  [new OrderPackingClosed({ orderId: "SO-1" }), "Conflict", "Order SO-1 is shipped: its packing cannot change"],
  [new OrderNotPacked({ orderId: "SO-1", units: 3 }), "Conflict", "Order SO-1 has 3 picked units not packed"],
  [new OrderUnitsOpen({ orderId: "SO-1", units: 1 }), "Conflict", "Order SO-1 has 1 shipping units not closed"],
  [new ReturnNotFound({ returnId: "R00000001" }), "NotFound", "Return R00000001 not found"],
  [new ReturnExists({ returnId: "RMA-1" }), "Conflict", "Return RMA-1 already exists"],
  [new OrderNotShipped({ orderId: "SO-1" }), "Conflict", "Order SO-1 is not shipped"],
  [
    new ReturnOfTransfer({ orderId: "T-1", toSite: "north" }),
    "Conflict",
    "Order T-1 is a transfer to site north: its goods come back by a transfer, not a return"
  ],
  [
    new ReturnExceedsShipped({ qty: 3, returnable: 2, orderId: "SO-1", line: 1 }),
    "Conflict",
    "Return of 3 exceeds the 2 returnable of order SO-1 line 1"
  ],
  [new ReturnStatusRefuses({ returnId: "R1", status: "Complete" }), "Conflict", "Return R1 is Complete"],
  [new ReturnHasReceipts({ returnId: "R1" }), "Conflict", "Return R1 has receipts: close it instead"],
  [new ReturnNothingReceived({ returnId: "R1" }), "Conflict", "Return R1 has nothing received: delete it instead"],
  [new PreAdviceNotFound({ preAdviceId: "PA-1" }), "NotFound", "PreAdvice with PreAdviceID PA-1 not found"],
  [new PreAdviceExists({ preAdviceId: "PA-1" }), "Conflict", "PreAdvice with PreAdviceID PA-1 already exists"],
  [new PreAdviceLineNotFound({ preAdviceId: "PA-1", line: 2 }), "NotFound", "Line 2 of pre-advice PA-1 not found"],
  [
    new PreAdviceLineExists({ preAdviceId: "PA-1", line: 2 }),
    "Conflict",
    "Line 2 of pre-advice PA-1 already exists"
  ],
  [
    new PreAdviceLineNumbersExhausted({ preAdviceId: "PA-1" }),
    "Conflict",
    "PreAdvice with PreAdviceID PA-1 has no line number left"
  ],
  [
    new PreAdviceNotOpen({ preAdviceId: "PA-1", status: "Received", rule: "only an Open pre-advice can be changed" }),
    "Conflict",
    "PreAdvice with PreAdviceID PA-1 is Received: only an Open pre-advice can be changed"
  ],
  [
    new PreAdviceNothingToReceive({ preAdviceId: "PA-1" }),
    "Conflict",
    "PreAdvice with PreAdviceID PA-1 has nothing left to receive"
  ],
  [new ContentNotFound({ contentId: 9 }), "NotFound", "Inventory content with contentId 9 not found"],
  [new TransactionNotFound({ transactionId: 9 }), "NotFound", "Inventory transaction with transactionId 9 not found"],
  [new LostAndFoundItemNotFound({ itemId: 9 }), "NotFound", "Lost and found item with id 9 not found"],
  [
    new ContentFull({ contentId: 9, max: 2147483647 }),
    "Conflict",
    "Inventory content with contentId 9 cannot hold more than 2147483647"
  ],
  [
    new StockShort({ contentId: 9, qty: 5, next: -1, held: 2, available: 3 }),
    "Conflict",
    "Content 9 cannot go from 5 to -1: 2 of it is allocated or tasked, 3 is available"
  ],
  [new LocationNotFound({ locId: "A-01" }), "NotFound", "Location with id A-01 not found"],
  [new LocationExists({ locId: "A-01" }), "Conflict", "Location A-01 already exists"],
  [new LocationInUse({ locId: "A-01" }), "Conflict", "Location A-01 holds stock or open tasks"],
  [new LocationBeingCounted({ locId: "A-01" }), "Conflict", "Location A-01 is being counted"],
  [new LocationStatusRefuses({ locId: "A-01", status: "Blocked In" }), "Conflict", "Location A-01 is Blocked In"],
  [new LocationFull({ locId: "A-01", qty: 5, skuId: "APPLE" }), "Conflict", "Location A-01 has no room for 5 of APPLE"],
  [new MovementTaskNotFound({ taskId: 4 }), "NotFound", "Movement task with id 4 not found"],
  [new MovementTaskClosed({ taskId: 4, status: "Complete" }), "Conflict", "Movement task 4 is Complete"],
  [
    new ContentUnavailable({ contentId: 9, available: 3, qty: 5 }),
    "Conflict",
    "Content 9 has 3 available, 5 asked"
  ],
  [
    new ContentNotAtReceiving({ contentId: 9, locId: "A-01" }),
    "Conflict",
    "Content 9 is at A-01, not at a receiving location"
  ],
  [new CountNotFound({ countId: 7 }), "NotFound", "Count with id 7 not found"],
  [new CountWrongState({ countId: 7, status: "Pending Approval" }), "Conflict", "Count 7 is Pending Approval"],
  [new LocationAlreadyCounted({ locId: "A-01" }), "Conflict", "Location A-01 is already being counted"],
  [new LocationHasInbound({ locId: "A-01" }), "Conflict", "Location A-01 has open inbound movement tasks"],
  [
    new CountBelowTasked({ contentId: 9, tasked: 4 }),
    "Conflict",
    "Content 9 has 4 under movement tasks: confirm or cancel them before the count applies"
  ],
  [new PickFaceNotFound({ skuId: "APPLE", locId: "PF-1" }), "NotFound", "Pick face APPLE at PF-1 not found"],
  [new NotAPickFace({ locId: "A-01" }), "Conflict", "Location A-01 is not a pick face"],
  [new WaveDefinitionNotFound({ waveDefinitionId: 3 }), "NotFound", "Wave definitie met id 3 niet gevonden"],
  [new WaveNotFound({ waveId: 5 }), "NotFound", "Wave met id 5 niet gevonden"],
  [new WaveStarted({ waveId: 5 }), "Conflict", "Wave met id 5 is al gestart"],
  [
    new WavePickingStarted({ waveId: 5 }),
    "Conflict",
    "Wave met id 5 kan niet worden verwijderd: het picken is begonnen"
  ],
  [new WebhookNotFound(), "NotFound", "Webhook niet gevonden"],
  [invalidField("qty", "must be at least 1"), "InvalidInput", "Invalid field qty: must be at least 1"],
  [new Unauthenticated({ message: "Missing authorization token" }), "Unauthenticated", "Missing authorization token"],
  [new Forbidden({ message: "Invalid site" }), "Forbidden", "Invalid site"],
  [new NotFound({ message: "Nothing here" }), "NotFound", "Nothing here"],
  [new Conflict({ message: "Not now" }), "Conflict", "Not now"]
]

describe("the core's errors", () => {
  it("build the documented message from their data, and belong to their category", () => {
    for (const [error, category, message] of documented) {
      assert.strictEqual(error.message, message, error._tag)
      assert.strictEqual(error.category, category, error._tag)
      assert.strictEqual(String(error), `${error._tag}: ${message}`)
    }
  })

  it("are all documented above, each tagged with the name of its class", () => {
    const tags = documented.map(([error]) => error._tag)
    assert.strictEqual(new Set(tags).size, tags.length)
    for (const [error] of documented) assert.strictEqual(error._tag, error.constructor.name)
    const classes = Object.entries(Core).filter(([, value]) =>
      typeof value === "function" && Object.getOwnPropertyDescriptor(value.prototype ?? {}, "category") !== undefined
    )
    assert.sameMembers(classes.map(([name]) => name), tags)
  })

  it("are tested by category, whatever their tag", () => {
    const checks = [
      ["InvalidInput", isInvalidInput],
      ["Unauthenticated", isUnauthenticated],
      ["Forbidden", isForbidden],
      ["NotFound", isNotFound],
      ["Conflict", isConflict]
    ] as const
    for (const [error, category] of documented) {
      assert.isTrue(isWarehouseError(error), error._tag)
      for (const [name, check] of checks) assert.strictEqual(check(error), name === category, `${error._tag} ${name}`)
    }
    const others = [new Error("boom"), { category: "NotFound" }, { category: "Gone", message: "x" }, null, "NotFound"]
    for (const other of others) {
      assert.isFalse(isWarehouseError(other))
      assert.isFalse(isNotFound(other))
    }
  })

  it.effect("are caught by tag, or by category", () =>
    Effect.gen(function*() {
      const missing = Effect.fail(new OrderNotFound({ orderId: "SO-9" }))
      const byTag = yield* Effect.catchTag(missing, "OrderNotFound", (error) => Effect.succeed(error.orderId))
      const byCategory = yield* Effect.catchIf(missing, isNotFound, (error) => Effect.succeed(error.message))
      assert.deepStrictEqual([byTag, byCategory], ["SO-9", "Order with OrderID SO-9 not found"])
    }))
})
