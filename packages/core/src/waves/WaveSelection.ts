/**
 * Which orders a wave takes (DECISIONS §6), pure: a Released order of the scope that is in no
 * other unfinished wave and matches the definition's criterion. Names, order id, carrier, town
 * and client id match ignoring case; dates match the `DD-MM-YYYY` value; criterion 5 takes all.
 */

/** An order that may join a wave, with what the criteria look at. */
export interface CandidateOrder {
  readonly order_ref: number
  readonly order_id: string
  readonly client_id: string | null
  readonly order_date: string | null
  readonly ship_by_date: string | null
  readonly customer_name: string | null
  readonly customer_town: string | null
  readonly carrier_name: string | null
}

/** `YYYY-MM-DD` of a `DD-MM-YYYY` value, or null when it is not one. */
export const fromDutchDate = (value: string): string | null => {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(value.trim())
  return match === null ? null : `${match[3]}-${match[2]}-${match[1]}`
}

const sameText = (a: string | null, b: string | null) =>
  a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase()

/** Whether an order matches criterion `criteriumId` with `value`. */
export const matchesCriterion = (criteriumId: number, value: string | null, order: CandidateOrder): boolean => {
  switch (criteriumId) {
    case 1:
      return sameText(order.customer_name, value)
    case 2:
      return sameText(order.order_id, value)
    case 3:
      return value !== null && order.order_date !== null && order.order_date === fromDutchDate(value)
    case 4:
      return sameText(order.carrier_name, value)
    case 5:
      return true
    case 6:
      return sameText(order.customer_town, value)
    case 7:
      return value !== null && order.ship_by_date !== null && order.ship_by_date === fromDutchDate(value)
    case 8:
      return sameText(order.client_id, value)
    default:
      return false
  }
}
