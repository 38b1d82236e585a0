import { Layer } from "effect"
import { ApprovalRequestsLive } from "../approvals/ApprovalRequests.js"
import { Approvals } from "../approvals/Approvals.js"
import { ApprovalsHttpLive } from "../approvals/ApprovalsHttp.js"
import { ApprovalsQuery } from "../approvals/ApprovalsQuery.js"
import { PostPackages } from "../packages/PostPackages.js"
import { PostPackagesHttpLive } from "../packages/PostPackagesHttp.js"
import { JobActions } from "./JobActions.js"
import { JobActionsHttpLive } from "./JobActionsHttp.js"

/**
 * People's decisions on jobs (approvals, job actions: carried out by the job's channel entity), the emails asking for
 * approvals, and post packages.
 */
export const DecisionsLive = Layer.mergeAll(
  ApprovalsHttpLive,
  JobActionsHttpLive,
  PostPackagesHttpLive,
  ApprovalRequestsLive
).pipe(
  Layer.provideMerge(Layer.mergeAll(Approvals.layer, JobActions.layer, PostPackages.layer)),
  Layer.provideMerge(ApprovalsQuery.layer)
)
