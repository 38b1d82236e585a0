import { Layer } from "effect"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { StorageRepo } from "../../src/media/StorageRepo.js"
import { StorageUsage } from "../../src/media/StorageUsage.js"
import { AllowanceRepo } from "../../src/renders/allowance/AllowanceRepo.js"
import { Quotas } from "../../src/renders/allowance/Quotas.js"
import { RenderCapacity } from "../../src/renders/allowance/RenderCapacity.js"
import { WorkspaceAllowanceEntityLive } from "../../src/renders/allowance/WorkspaceAllowanceEntityLive.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { serviceTestLayer } from "./ServiceLayer.js"

/** The workspace allowance entity and the quotas over a database of their own (`label`), as a node has them. */
export const allowanceTestLayer = (label: string) =>
  Layer.mergeAll(WorkspaceAllowanceEntityLive, Quotas.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(Identity.layer, StorageUsage.layer, RenderCapacity.layer)),
    Layer.provideMerge(Layer.mergeAll(
      AllowanceRepo.layer,
      RenderRepo.layer,
      IdentityRepo.layer,
      StorageRepo.layer,
      LocalBlobStorage.layer
    )),
    Layer.provideMerge(serviceTestLayer(label))
  )
