import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { InvalidStateTransition, NotFound, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { IdPath } from "../../http/ApiPaths.js"
import { DeliveriesParams, DeliveryAnswer, DeliveryList } from "./Delivery.js"

/** The deliveries log: every webhook call and email the hand-over made, and redelivery of those that failed. */
export class DeliveriesApi extends HttpApiGroup.make("deliveries")
  .add(
    HttpApiEndpoint.get("list", "/deliveries")
      .annotateContext(
        doc(
          "List deliveries",
          "The newest `limit` deliveries (default 40, at most 200; not paged), newest first. `postId`, `channelName` " +
            "and `platform` are those of the first post carried; `postIds` and `channelNames` list every post and its " +
            "channel in the order sent."
        )
      )
      .setUrlParams(DeliveriesParams)
      .addSuccess(DeliveryList)
  )
  .add(
    HttpApiEndpoint.get("get", "/deliveries/:id")
      .annotateContext(
        doc(
          "Show one delivery",
          "The delivery whole: where it went (`url` or `recipients`), the headers and body it sends on every attempt " +
            "(a webhook's exact body text in `bodyBytes`), and every attempt with its status code, error and the start " +
            "of the answer. Another workspace's delivery is 404."
        )
      )
      .setPath(IdPath)
      .addSuccess(DeliveryAnswer)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("redeliver", "/deliveries/:id/redeliver")
      .annotateContext(
        doc(
          "Redeliver a dead or retrying delivery",
          "Sends the delivery again at once, byte for byte identical with the same headers and signature, and answers " +
            "it after that attempt. A delivery that is not DEAD or RETRYING is 409 `invalid_state_transition`."
        )
      )
      .setPath(IdPath)
      .addSuccess(DeliveryAnswer)
      .addError(NotFound)
      .addError(InvalidStateTransition)
  )
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup(
      "Deliveries",
      "Hand-over by signed webhook and email: what was sent, what came back, and redelivery. Reading needs " +
        "`connections:read`, redelivery `connections:write`."
    )
  )
{}
