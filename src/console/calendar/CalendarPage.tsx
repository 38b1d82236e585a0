import type { SignedIn } from "../../people/People.js"
import type { CalendarAnswer } from "../../publishing/pipeline/PipelineCalendar.js"
import { Layout } from "../Layout.js"
import {
  type CalendarAsk,
  type CalendarDayShown,
  DAY_NAMES,
  longDate,
  postsByDay,
  stepped,
  titleOf
} from "./CalendarWindow.js"
import { dateText, type LocalDate, weekdayOf, zoneChoices } from "./ZoneTime.js"

export const ZONE_SCRIPT = "/console/assets/zone.js"

export interface CalendarPageProps {
  readonly person: SignedIn
  readonly ask: CalendarAsk
  /** Whether the zone came from the person (cookie); without it the page is in UTC and says so. */
  readonly zoneChosen: boolean
  /** A zone the browser sent that the server does not know. */
  readonly zoneRefused?: string | undefined
  readonly channelId?: string | undefined
  readonly today: LocalDate
  readonly answer: CalendarAnswer
}

/** The calendar's address for a view, a day and a channel. */
export const calendarHref = (view: string, date: LocalDate | undefined, channelId: string | undefined) => {
  const params = new URLSearchParams({ view })
  if (date !== undefined) params.set("date", dateText(date))
  if (channelId !== undefined) params.set("channelId", channelId)
  return `/console/calendar?${params.toString()}`
}

const stateText = (state: string) => state.toLowerCase().replaceAll("_", " ")

const Day = ({ day, today }: { readonly day: CalendarDayShown; readonly today: LocalDate }) => {
  const id = `day-${dateText(day.date)}`
  const isToday = dateText(day.date) === dateText(today)
  return (
    <li
      class={`day${day.entries.length === 0 ? " empty" : ""}${isToday ? " today" : ""}`}
      aria-labelledby={id}
      aria-current={isToday ? "date" : undefined}
    >
      <h3 id={id}>
        <time datetime={dateText(day.date)} safe>{longDate(day.date)}</time>
        {isToday ? <span class="muted">{" (today)"}</span> : ""}
      </h3>
      {day.entries.length === 0 ? <p class="muted">No posts</p> : (
        <ul>
          {day.entries.map(({ post, time }) => (
            <li class={`entry ${post.kind}`}>
              <a href={`/console/jobs/${encodeURIComponent(post.postGroupId)}`}>
                <time datetime={post.at} safe>{time}</time>{" "}
                <span safe>{post.title === "" ? "(untitled post)" : post.title}</span>
              </a>
              <span class="meta" safe>
                {`${post.channelName} · ${post.kind === "published" ? "Published" : "Scheduled"} (${
                  stateText(post.state)
                })`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

/** How many posts each channel has in the window, scheduled and published, for channels with any. */
const ChannelCounts = ({ answer }: { readonly answer: CalendarAnswer }) => {
  const counts = answer.channels.map((channel) => {
    const own = answer.posts.filter((p) => p.channelId === channel.id)
    const scheduled = own.filter((p) => p.kind === "scheduled").length
    return { name: channel.name, scheduled, published: own.length - scheduled }
  }).filter((c) => c.scheduled + c.published > 0)
  return counts.length === 0 ? "" : (
    <ul class="plain channel-counts" aria-label="Posts per channel">
      {counts.map((c) => <li safe>{`${c.name}: ${c.scheduled} scheduled, ${c.published} published`}</li>)}
    </ul>
  )
}

const ZoneForm = ({ ask }: { readonly ask: CalendarAsk }) => (
  <form method="post" action="/console/calendar/zone" class="filters card">
    <input type="hidden" name="view" value={ask.view} />
    <input type="hidden" name="date" value={dateText(ask.date)} />
    <div>
      <label for="zone">Time zone</label>
      <select id="zone" name="zone">
        {zoneChoices(ask.zone).map((zone) => <option value={zone} selected={zone === ask.zone} safe>{zone}</option>)}
      </select>
    </div>
    <button type="submit" class="quiet">Use this zone</button>
  </form>
)

const ChannelForm = (
  { answer, ask, channelId }: Pick<CalendarPageProps, "answer" | "ask" | "channelId">
) => (
  <form method="get" action="/console/calendar" class="filters card" role="search" aria-label="Filter the calendar">
    <input type="hidden" name="view" value={ask.view} />
    <input type="hidden" name="date" value={dateText(ask.date)} />
    <div>
      <label for="channel">Channel</label>
      <select id="channel" name="channelId">
        <option value="" selected={channelId === undefined}>All channels</option>
        {answer.channels.map((c) => <option value={c.id} selected={c.id === channelId} safe>{c.name}</option>)}
      </select>
    </div>
    <button type="submit" class="quiet">Show</button>
  </form>
)

const Steps = ({ ask, channelId }: Pick<CalendarPageProps, "ask" | "channelId">) => (
  <nav class="paging calendar-steps" aria-label="Calendar pages">
    <a href={calendarHref(ask.view, stepped(ask, -1), channelId)} rel="prev">Previous</a>
    <a href={calendarHref(ask.view, undefined, channelId)}>Today</a>
    <a href={calendarHref(ask.view, stepped(ask, 1), channelId)} rel="next">Next</a>
    <span aria-hidden="true">|</span>
    {(["month", "week"] as const).map((view) => (
      <a href={calendarHref(view, ask.date, channelId)} aria-current={view === ask.view ? "page" : undefined}>
        {view === "month" ? "Month" : "Week"}
      </a>
    ))}
  </nav>
)

const ZoneNote = ({ ask, zoneChosen, zoneRefused }: Pick<CalendarPageProps, "ask" | "zoneChosen" | "zoneRefused">) =>
  zoneRefused !== undefined
    ? (
      <p class="notice error" safe>
        {`Times are in UTC: the time zone ${zoneRefused} is not one this server knows. Choose one below.`}
      </p>
    )
    : zoneChosen
    ? <p class="muted" safe>{`Times are in ${ask.zone}.`}</p>
    : (
      <p class="notice" data-zone-default="true">
        Times are in UTC: this browser has not told us its time zone yet. Choose one below, or let the page take the
        browser's (it needs script).
      </p>
    )

/** `/console/calendar`: a month or a week of scheduled and published posts, as a list of days, in the person's zone. */
export const calendarPage = (props: CalendarPageProps) => {
  const { answer, ask } = props
  const days = postsByDay(ask, answer.posts)
  const lead = ask.view === "month" ? weekdayOf(days[0]!.date) : 0
  const scheduled = answer.posts.filter((p) => p.kind === "scheduled").length
  return (
    <Layout title="Calendar" person={props.person} current="/console/calendar">
      <h1>Calendar</h1>
      <ZoneNote ask={ask} zoneChosen={props.zoneChosen} zoneRefused={props.zoneRefused} />
      <Steps ask={ask} channelId={props.channelId} />
      <div class="calendar-forms">
        <ChannelForm answer={answer} ask={ask} channelId={props.channelId} />
        <ZoneForm ask={ask} />
      </div>
      <h2 safe>{titleOf(ask)}</h2>
      <p class="muted" safe>
        {`${scheduled} scheduled, ${answer.posts.length - scheduled} published.`}
      </p>
      <ChannelCounts answer={answer} />
      <div class={`calendar ${ask.view}`}>
        <div class="weekdays" aria-hidden="true">
          {DAY_NAMES.map((name) => <span safe>{name}</span>)}
        </div>
        <ol class="days">
          {Array.from({ length: lead }, () => <li class="pad" aria-hidden="true"></li>)}
          {days.map((day) => <Day day={day} today={props.today} />)}
        </ol>
      </div>
      <script src={ZONE_SCRIPT} defer></script>
    </Layout>
  )
}
