/**
 * The composed customer text of orders and waves (DECISIONS §2): `"<name>, <town>"`, or the name
 * alone when the customer has no town.
 */
export const composeCustomerName = (name: string, town: string | null): string =>
  town === null || town.trim() === "" ? name : `${name}, ${town}`
