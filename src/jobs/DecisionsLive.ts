import { Layer } from "effect"
import { Approvals } from "./Approvals.js"
import { ApprovalsHttpLive } from "./ApprovalsHttp.js"
import { ApprovalsQuery } from "./ApprovalsQuery.js"
import { JobActions } from "./JobActions.js"
import { JobActionsHttpLive } from "./JobActionsHttp.js"
import { PostPackages } from "./PostPackages.js"
import { PostPackagesHttpLive } from "./PostPackagesHttp.js"

/** People's decisions on jobs (approvals, job actions: carried out by the job's channel entity) and post packages. */
export const DecisionsLive = Layer.mergeAll(ApprovalsHttpLive, JobActionsHttpLive, PostPackagesHttpLive).pipe(
  Layer.provideMerge(Layer.mergeAll(Approvals.layer, JobActions.layer, PostPackages.layer)),
  Layer.provideMerge(ApprovalsQuery.layer)
)
