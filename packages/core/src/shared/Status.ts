/**
 * The one status table of DECISIONS §3: its ids and descriptions are part of the contract.
 */
export const Status = {
  Open: 1,
  InReceipt: 2,
  Received: 3,
  Released: 14,
  Allocated: 15,
  PartiallyAllocated: 16,
  InProgress: 17,
  Picked: 18,
  Shipped: 19,
  Complete: 20,
  Cancelled: 21,
  Counting: 22,
  PendingApproval: 23,
  Active: 24
} as const
export type StatusId = typeof Status[keyof typeof Status]

const descriptions: Record<StatusId, string> = {
  1: "Open",
  2: "In Receipt",
  3: "Received",
  14: "Released",
  15: "Allocated",
  16: "Partially Allocated",
  17: "In Progress",
  18: "Picked",
  19: "Shipped",
  20: "Complete",
  21: "Cancelled",
  22: "Counting",
  23: "Pending Approval",
  24: "Active"
}

/** The description of a status id, e.g. `Released` for 14. */
export const statusDescription = (id: StatusId): string => descriptions[id]

/** A status as records show it: `{id, description}`. */
export const statusObject = (id: StatusId) => ({ id, description: descriptions[id] })
