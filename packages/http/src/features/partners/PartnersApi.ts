/**
 * Customers and suppliers (§2.8, §4.7 of the API document): two groups of one shape.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  CustomerInUse,
  CustomerNotFound,
  ListWindow,
  Partner,
  PartnerDetail,
  PartnerInput,
  RecordIdFromPath,
  SupplierInUse,
  SupplierNotFound,
  type WarehouseError
} from "@wms/core"
import { Schema } from "effect"
import { generated } from "../../api/CreatedAt.js"
import { type ErrorClass, onTheWire } from "../../api/Errors.js"
import { Authorization } from "../../api/Security.js"
import { ReadOnlyFields } from "../../api/UnknownFields.js"

const IdPath = Schema.Struct({ id: RecordIdFromPath })

const partnerGroup = <
  const Group extends string,
  const One extends string,
  const Many extends string,
  Missing extends WarehouseError,
  Used extends WarehouseError
>(
  group: Group,
  names: { readonly one: One; readonly many: Many },
  wording: { readonly title: string; readonly usedBy: string; readonly addressType: string },
  errors: { readonly notFound: ErrorClass<Missing>; readonly inUse: ErrorClass<Used> }
) => {
  const path = `/${group}` as const
  const notFound = `Missing in the scope: 404 \`${wording.title} with id <id> not found\`; a non-integer id: 400.`
  return HttpApiGroup.make(group)
    .add(
      HttpApiEndpoint.get(`list${names.many}` as const, path)
        .setUrlParams(ListWindow)
        .addSuccess(Schema.Array(Partner))
        .annotate(
          OpenApi.Description,
          `The ${group} of the scope, by id; optional \`limit\` and \`offset\`. \`address_id\` is the record's own id.`
        )
    )
    .add(
      HttpApiEndpoint.post(`create${names.one}` as const, path)
        .setPayload(PartnerInput)
        .annotate(ReadOnlyFields, PartnerDetail)
        .annotateContext(generated(path))
        .annotate(
          OpenApi.Description,
          `Creates a ${wording.addressType}, owned by the site and client of the \`site\` header. \`name\` is ` +
            "required and not blank; the other fields are optional, and an absent, null or empty one is stored as " +
            "null. The address is kept on the record: `address_id` equals `id`."
        )
    )
    .add(
      HttpApiEndpoint.get(`get${names.one}` as const, `${path}/:id`)
        .setPath(IdPath)
        .addSuccess(PartnerDetail)
        .addError(onTheWire(errors.notFound))
        .annotate(
          OpenApi.Description,
          `One ${wording.addressType}, with \`address_type\`: the string "${wording.addressType}". ${notFound}`
        )
    )
    .add(
      HttpApiEndpoint.put(`update${names.one}` as const, `${path}/:id`)
        .setPath(IdPath)
        .setPayload(PartnerInput)
        .annotate(ReadOnlyFields, PartnerDetail)
        .addError(onTheWire(errors.notFound))
        .annotate(
          OpenApi.Description,
          "Replaces every writable field, as on create: an optional field left out becomes null. " + notFound
        )
    )
    .add(
      HttpApiEndpoint.del(`delete${names.one}` as const, `${path}/:id`)
        .setPath(IdPath)
        .addError(onTheWire(errors.notFound))
        .addError(onTheWire(errors.inUse))
        .annotate(
          OpenApi.Description,
          `204. Still referred to by ${wording.usedBy}: 409 \`${wording.title} <id> is used by ${wording.usedBy}\`. ` +
            notFound
        )
    )
    .middleware(Authorization)
}

export class CustomersApi extends partnerGroup("customers", { one: "Customer", many: "Customers" }, {
  title: "Customer",
  usedBy: "orders",
  addressType: "customer"
}, { notFound: CustomerNotFound, inUse: CustomerInUse }).annotate(OpenApi.Title, "Customers")
  .annotate(OpenApi.Description, "The customers orders ship to, owned by a site and client.")
{}

export class SuppliersApi extends partnerGroup("suppliers", { one: "Supplier", many: "Suppliers" }, {
  title: "Supplier",
  usedBy: "pre-advices",
  addressType: "supplier"
}, { notFound: SupplierNotFound, inUse: SupplierInUse }).annotate(OpenApi.Title, "Suppliers")
  .annotate(OpenApi.Description, "The suppliers pre-advices come from, owned by a site and client.")
{}
