/**
 * The failures of movement tasks, each with its data and its message.
 */
import { Schema } from "effect"

/** 404: no movement task with this id in the caller's scope. */
export class MovementTaskNotFound extends Schema.TaggedError<MovementTaskNotFound>()("MovementTaskNotFound", {
  taskId: Schema.Number
}) {
  get category() {
    return "NotFound" as const
  }
  override get message() {
    return `Movement task with id ${this.taskId} not found`
  }
}

/** 409: a confirm or delete of a task that is not Open; `status` is its description. */
export class MovementTaskClosed extends Schema.TaggedError<MovementTaskClosed>()("MovementTaskClosed", {
  taskId: Schema.Number,
  status: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Movement task ${this.taskId} is ${this.status}`
  }
}

/** 409: the source content has less available than the task asks. */
export class ContentUnavailable extends Schema.TaggedError<ContentUnavailable>()("ContentUnavailable", {
  contentId: Schema.Number,
  available: Schema.Number,
  qty: Schema.Number
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Content ${this.contentId} has ${this.available} available, ${this.qty} asked`
  }
}

/** 409: putaway applies to stock at a Receiving location only. */
export class ContentNotAtReceiving extends Schema.TaggedError<ContentNotAtReceiving>()("ContentNotAtReceiving", {
  contentId: Schema.Number,
  locId: Schema.String
}) {
  get category() {
    return "Conflict" as const
  }
  override get message() {
    return `Content ${this.contentId} is at ${this.locId}, not at a receiving location`
  }
}
