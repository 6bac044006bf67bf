/**
 * The failures of confirming pick tasks and shipping orders, each with its data and its documented
 * message.
 */
import { Schema } from "effect"

/** 404: the task does not exist, is not in the caller's scope, or is confirmed already. */
export class TaskNotFound extends Schema.TaggedError<TaskNotFound>()("TaskNotFound", {
  taskId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Task with id ${this.taskId} not found`
  }
}

/** 409: the order is shipped already. */
export class OrderShipped extends Schema.TaggedError<OrderShipped>()("OrderShipped", {
  orderId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} is already shipped`
  }
}

/** 409: some pick task of the order is still open. */
export class OrderTasksOpen extends Schema.TaggedError<OrderTasksOpen>()("OrderTasksOpen", {
  orderId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} still has open tasks`
  }
}

/** 409: nothing of the order has been picked, so there is nothing to ship. */
export class OrderNothingPicked extends Schema.TaggedError<OrderNothingPicked>()("OrderNothingPicked", {
  orderId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Order with OrderID ${this.orderId} has nothing picked`
  }
}
