import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { OpenApi } from "@effect/platform"
import { Forbidden, NotFound, SchemaValidation } from "../domain/Errors.js"
import { AdminAuthentication, Authentication } from "./Security.js"

type Group<Id extends string, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any, E, R, TopLevel extends boolean> =
  HttpApiGroup.HttpApiGroup<Id, Endpoints, E, R, TopLevel>

/** A workspace's routes under /v1: a bearer key or a session names the workspace; a section of the reference. */
export const workspaceGroup =
  (title: string, description: string) =>
  <Id extends string, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any, E, R, TopLevel extends boolean>(
    group: Group<Id, Endpoints, E, R, TopLevel>
  ) => group.middleware(Authentication).prefix("/v1").annotateContext(OpenApi.annotations({ title, description }))

/** Operator routes under /admin, behind `ADMIN_TOKEN`; they share one section of the reference. */
export const adminGroup = <
  Id extends string,
  Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any,
  E,
  R,
  TopLevel extends boolean
>(group: Group<Id, Endpoints, E, R, TopLevel>) =>
  group.addError(SchemaValidation).middleware(AdminAuthentication).prefix("/admin").annotateContext(
    OpenApi.annotations({
      title: "Admin",
      description: "Operator routes (see docs/operating.md); `Authorization: Bearer $ADMIN_TOKEN`."
    })
  )

/**
 * Routes under /v1 reached through a signed link, with no credential: a wrong, tampered or expired signature is 403,
 * what the link names gone is 404.
 */
export const signedGroup =
  (title: string, description: string) =>
  <Id extends string, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any, E, R, TopLevel extends boolean>(
    group: Group<Id, Endpoints, E, R, TopLevel>
  ) =>
    group.addError(Forbidden).addError(NotFound).prefix("/v1").annotateContext(
      OpenApi.annotations({ title, description })
    )
