import { Layer } from "effect"
import { Approvals } from "./Approvals.js"
import { ApprovalsHttpLive } from "./ApprovalsHttp.js"
import { ApprovalsQuery } from "./ApprovalsQuery.js"
import { JobActions } from "./JobActions.js"
import { JobActionsHttpLive } from "./JobActionsHttp.js"

/** People's decisions on jobs: approvals and job actions, each carried out by the job's channel entity. */
export const DecisionsLive = Layer.merge(ApprovalsHttpLive, JobActionsHttpLive).pipe(
  Layer.provideMerge(Layer.merge(Approvals.layer, JobActions.layer)),
  Layer.provideMerge(ApprovalsQuery.layer)
)
