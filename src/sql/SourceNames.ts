import type { SqlClient } from "@effect/sql"

/**
 * What the logs print for an event's input, read as channel names are: the stream's or post list's name as its row
 * has it now (`<name> (removed)` once deleted; the row stays for history), otherwise what was stored when the event
 * landed (a feed's source/format). `event` is the alias of `ingest_events`.
 */
export const eventDetails = (sql: SqlClient.SqlClient, event: string) =>
  sql`COALESCE(
    (SELECT s.name FROM streams s WHERE s.id = ${sql(`${event}.stream_id`)}
      AND s.workspace_id = ${sql(`${event}.workspace_id`)}),
    (SELECT q.name FROM queues q WHERE q.id = ${sql(`${event}.queue_id`)}
      AND q.workspace_id = ${sql(`${event}.workspace_id`)}),
    ${sql(`${event}.details`)})`

/**
 * The same for a render job, which copied its first job's event details when it was made: that event's input as it
 * is named now, otherwise the copy (an export's). `render` is the alias of `render_jobs`.
 */
export const renderDetails = (sql: SqlClient.SqlClient, render: string) =>
  sql`COALESCE((SELECT ${eventDetails(sql, "re")} FROM jobs rj JOIN ingest_events re ON re.id = rj.ingest_event_id
    WHERE rj.render_job_id = ${sql(`${render}.id`)} AND rj.workspace_id = ${sql(`${render}.workspace_id`)}
    ORDER BY rj.created_at, rj.id LIMIT 1), ${sql(`${render}.details`)})`
