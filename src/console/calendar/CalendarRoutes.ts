import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Option, Schema } from "effect"
import { AppConfig } from "../../Config.js"
import { PipelineViews } from "../../publishing/pipeline/PipelineViews.js"
import { htmlPage, seeOther } from "../ConsoleResponse.js"
import { CurrentPerson, isHtmx, makeSignedIn } from "../ConsoleSession.js"
import { notUnderstoodPage } from "../Refusals.js"
import { calendarHref, calendarPage, ZONE_SCRIPT } from "./CalendarPage.js"
import { type CalendarAsk, windowOf } from "./CalendarWindow.js"
import { ZONE_JS } from "./ZoneScript.js"
import { dateAt, knownZone, type LocalDate, parseDate, personZone, ZONE_COOKIE } from "./ZoneTime.js"

const View = Schema.Literal("month", "week")
const CalendarQuery = Schema.Struct({
  view: Schema.optional(View),
  date: Schema.optional(Schema.String),
  channelId: Schema.optional(Schema.String)
})
const ZoneForm = Schema.Struct({
  zone: Schema.String,
  view: Schema.optional(View),
  date: Schema.optional(Schema.String)
})

const notUnderstood = notUnderstoodPage

/** `/console/calendar` (month and week), the zone form and the small script telling the page the browser's zone. */
export const CalendarRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const views = yield* PipelineViews
    const { publicBaseUrl } = yield* AppConfig
    const signedIn = yield* makeSignedIn

    yield* router.get(
      ZONE_SCRIPT,
      Effect.succeed(HttpServerResponse.text(ZONE_JS, {
        contentType: "text/javascript; charset=utf-8",
        headers: { "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" }
      }))
    )

    yield* router.get(
      "/console/calendar",
      signedIn(
        Effect.gen(function*() {
          const person = yield* CurrentPerson
          const request = yield* HttpServerRequest.HttpServerRequest
          const q = yield* Effect.option(HttpServerRequest.schemaSearchParams(CalendarQuery))
          if (Option.isNone(q)) return notUnderstood("The calendar shows view=month or view=week.")
          const { chosen, refused, zone } = personZone(request)
          const today = dateAt(yield* Clock.currentTimeMillis, zone)
          const date: LocalDate | undefined = q.value.date === undefined || q.value.date === ""
            ? today
            : parseDate(q.value.date)
          if (date === undefined) return notUnderstood("The date must be a day written YYYY-MM-DD, like 2026-12-07.")
          const channelId = q.value.channelId === "" ? undefined : q.value.channelId
          const ask: CalendarAsk = { view: q.value.view ?? "month", date, zone }
          const { from, to } = windowOf(ask)
          const answer = yield* views.calendar(person.workspaceId, { from, to, channelIds: channelId })
          return htmlPage(
            calendarPage({ person, ask, zoneChosen: chosen, zoneRefused: refused, channelId, today, answer })
          )
        }).pipe(Effect.catchTag("SchemaValidation", (e) => Effect.succeed(notUnderstood(e.message))))
      )
    )

    yield* router.post(
      "/console/calendar/zone",
      signedIn(Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const form = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(ZoneForm))
        if (Option.isNone(form)) return notUnderstood("Choose a time zone from the list.")
        const zone = knownZone(form.value.zone.trim())
        if (zone === undefined) {
          return notUnderstood(
            `"${form.value.zone.slice(0, 64)}" is no time zone this server knows. Choose one from the list, ` +
              "like Europe/Berlin or America/New_York."
          )
        }
        const date = form.value.date === undefined ? undefined : parseDate(form.value.date)
        const back = calendarHref(form.value.view ?? "month", date, undefined)
        return HttpServerResponse.unsafeSetCookie(seeOther(back, isHtmx(request)), ZONE_COOKIE, zone, {
          path: "/console",
          sameSite: "lax",
          maxAge: "365 days",
          secure: publicBaseUrl.startsWith("https://")
        })
      }))
    )
  })
)
