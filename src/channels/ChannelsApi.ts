import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import {
  Conflict,
  Forbidden,
  NotFound,
  SchemaValidation,
  TemplateNotApproved,
  UnknownFormat,
  UnknownSource,
  UnknownStream,
  UnknownTemplate
} from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { IdPath } from "../http/ApiPaths.js"
import { Channel, CreateChannelBody, SurfaceView, UpdateChannelBody } from "./Channel.js"
import { AddSubscriptionBody, ChangeSubscriptionBody } from "./Subscription.js"
import { postingTable } from "./Surfaces.js"

const SubscriptionPath = Schema.Struct({ id: Schema.String, subId: Schema.String })
const ChannelAnswer = Schema.Struct({ channel: Channel })

export class ChannelsApi extends HttpApiGroup.make("channels")
  .add(
    HttpApiEndpoint.get("list", "/channels")
      .addSuccess(Schema.Struct({ channels: Schema.Array(Channel) }))
      .annotateContext(doc("List channels", "Every live channel of the workspace, oldest first, whole (not paged)."))
  )
  .add(
    HttpApiEndpoint.get("surfaces", "/channels/surfaces")
      .addSuccess(Schema.Struct({ surfaces: Schema.Array(SurfaceView) }))
      .annotateContext(
        doc("List surfaces", "The ten places a channel can publish to, with platform, label and the ratios offered.")
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/channels")
      .setPayload(CreateChannelBody)
      .addSuccess(ChannelAnswer, { status: 201 })
      .addError(Conflict)
      .addError(NotFound)
      .annotateContext(
        doc(
          "Create a channel",
          "Defaults: surface instagram-reels, locale en, the oldest enabled brand, approval NONE, deliverByEmail true, " +
            "deliverByWebhook false, name the first free 'New channel N'. A single-ratio surface fixes the ratio; a " +
            "multi-ratio surface needs `ratio` (400 naming the choices). No brand yet, a name in use, or " +
            "deliverByWebhook without a workspace webhook address: 409 `conflict`. `posting` takes only the surface's " +
            `switches (others: 400 at /posting/<switch>); surfaces and defaults: ${postingTable}.`
        )
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/channels/:id")
      .setPath(IdPath)
      .setPayload(UpdateChannelBody)
      .addSuccess(ChannelAnswer)
      .addError(Conflict)
      .addError(NotFound)
      .annotateContext(
        doc(
          "Change a channel",
          "Any create field plus `enabled`; what is not sent stays. A delivery switch sent alone is laid over the " +
            "other as stored; both false is 400. A new surface keeps the stored ratio and switches where it offers " +
            "them. Answers the channel as it now stands."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("delete", "/channels/:id/delete")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ deleted: Schema.Literal(true), cancelled: Schema.Number }))
      .addError(NotFound)
      .annotateContext(
        doc(
          "Delete a channel",
          "Cancels the channel's waiting jobs (`cancelled`). History keeps it under its name plus ' (removed)'; the " +
            "name is free again."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("subscribe", "/channels/:id/subscriptions")
      .setPath(IdPath)
      .setPayload(AddSubscriptionBody)
      .addSuccess(ChannelAnswer, { status: 201 })
      .addError(Conflict)
      .addError(NotFound)
      .addError(Forbidden)
      .addError(UnknownSource)
      .addError(UnknownFormat)
      .addError(UnknownStream)
      .addError(UnknownTemplate)
      .addError(TemplateNotApproved)
      .annotateContext(
        doc(
          "Subscribe a channel",
          "Adds an input the channel publishes: `BROADCAST` with `sourceSlug` and `formatSlug` (a shipped feed), " +
            "`STREAM` with `streamId`, `QUEUE` with `queueId`. The input fixes the template; the channel may pin " +
            "`templateVariant` and `templateVersion` (null: the input's variant and the newest build; `latest` is stored " +
            "as null; a version must otherwise be a full major.minor.patch, else 400; a variant or build that does " +
            "not exist: 404 `unknown_template`). " +
            "A QUEUE subscription pins nothing. The same input twice: 409. A feed not offered to the workspace or " +
            "switched off: 403 naming it. Unknown source, format or stream: 404 `unknown_source`, `unknown_format`, " +
            "`unknown_stream`. A `queueId` that is not a post list of the workspace: 404. Answers the channel with the " +
            "new subscription."
        )
      )
  )
  .add(
    HttpApiEndpoint.patch("changeSubscription", "/channels/:id/subscriptions/:subId")
      .setPath(SubscriptionPath)
      .setPayload(ChangeSubscriptionBody)
      .addSuccess(ChannelAnswer)
      .addError(NotFound)
      .addError(UnknownTemplate)
      .annotateContext(
        doc(
          "Change a subscription",
          "Changes `templateVariant`, `templateVersion` (null or `latest`: back to the newest build) and `enabled`; what is not sent " +
            "stays. The pins are checked as on subscribe. Answers the channel as it now stands."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("unsubscribe", "/channels/:id/subscriptions/:subId/delete")
      .setPath(SubscriptionPath)
      .addSuccess(ChannelAnswer)
      .addError(NotFound)
      .annotateContext(
        doc("Remove a subscription", "The channel stops publishing the input. Answers the channel as it now stands.")
      )
  )
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup(
      "Channels",
      "Where published work goes: a surface of a platform, in one ratio and language, wearing a brand."
    )
  )
{}
