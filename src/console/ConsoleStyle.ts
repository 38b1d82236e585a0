/** The console's one stylesheet, served at /console/assets/console.css (no inline style: the CSP allows none). */
export const CONSOLE_CSS = `
:root{--ink:#1d232b;--muted:#4d5966;--line:#d4dae1;--paper:#fff;--tint:#f3f5f8;--accent:#0b57d0;--danger:#a50e0e;
  --ok:#146c2e;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--tint)}
*{box-sizing:border-box}
body{margin:0;line-height:1.5}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{
  outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--paper);padding:.5rem;z-index:2}
header.top{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;background:var(--paper);
  border-bottom:1px solid var(--line);padding:.6rem 1.25rem}
header.top .brand{font-weight:700;font-size:1.1rem;color:var(--ink);text-decoration:none}
header.top form{display:flex;gap:.4rem;align-items:center;margin:0}
nav.main{background:var(--paper);border-bottom:1px solid var(--line);padding:0 1.25rem}
nav.main ul{display:flex;flex-wrap:wrap;gap:1.25rem;list-style:none;margin:0;padding:.5rem 0}
nav.main a[aria-current=page]{font-weight:700;color:var(--ink)}
main{max-width:72rem;margin:1.5rem auto;padding:0 1.25rem}
main.narrow{max-width:32rem}
.card{background:var(--paper);border:1px solid var(--line);border-radius:.5rem;padding:1.25rem;margin-bottom:1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=text],select,textarea{width:100%;padding:.5rem;border:1px solid var(--muted);border-radius:.3rem;
  font:inherit;background:var(--paper);color:var(--ink)}
header.top select{width:auto}
button{font:inherit;padding:.45rem 1rem;border-radius:.3rem;border:1px solid var(--accent);background:var(--accent);
  color:#fff;cursor:pointer}
button.quiet{background:var(--paper);color:var(--accent)}
button.danger{border-color:var(--danger);background:var(--danger)}
.muted{color:var(--muted)}
.notice{border-left:4px solid var(--accent);padding:.5rem 1rem;background:var(--paper)}
.notice.error{border-color:var(--danger)}
table{width:100%;border-collapse:collapse;background:var(--paper)}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid var(--line);vertical-align:top}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.htmx-indicator{opacity:0}.htmx-request .htmx-indicator,.htmx-request.htmx-indicator{opacity:1;transition:opacity .2s}
.approval-body{display:grid;grid-template-columns:minmax(0,18rem) minmax(0,1fr);gap:1.25rem;align-items:start}
@media (max-width:44rem){.approval-body{grid-template-columns:minmax(0,1fr)}}
.approval h2,.approval h1{margin-top:0;overflow-wrap:anywhere}
.approval video{display:block;width:100%;max-height:32rem;background:#000;border-radius:.3rem}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25rem 1rem;margin:0}
dl.facts div{display:contents}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere;white-space:pre-line}
.decide .actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.6rem}
.decision{border-left:4px solid var(--muted);padding:.5rem 1rem;background:var(--tint);overflow-wrap:anywhere}
.decision.approved{border-color:var(--ok)}
.decision.rejected{border-color:var(--danger)}
.select{margin:.75rem 0 0}
.select label{display:inline;margin:0 0 0 .4rem}
.filters{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end}
.filters div{flex:1 1 12rem}
.filters button{margin-top:.75rem}
.bulk button{margin-top:.6rem}
.paging{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:center;margin:1rem 0}
ul.plain{list-style:none;padding:0;margin:0}
ul.plain li{padding:.35rem 0;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
.attention h2{margin-top:0;font-size:1.15rem}
.attention .count{display:inline-block;min-width:1.6rem;padding:0 .45rem;border-radius:.8rem;background:var(--tint);
  border:1px solid var(--line);text-align:center}
/* workspace and exports */
.workspace-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,22rem),1fr));gap:0 1rem}
.workspace-grid h2,.extras h3{margin-top:0;font-size:1.15rem}
.share{margin:.6rem 0}
.share-label{display:block}
meter,progress{width:100%;height:1.1rem}
.wrap{overflow-wrap:anywhere}
.extras{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,14rem),1fr));gap:1rem}
.extra input[type=number]{width:100%;padding:.5rem;border:1px solid var(--muted);border-radius:.3rem;font:inherit}
textarea.code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9rem}
.start-export button{margin-top:.75rem}
.field-errors{color:var(--danger);margin:.25rem 0;padding-left:1.25rem;overflow-wrap:anywhere}
.notice.error ul{margin:.25rem 0;overflow-wrap:anywhere}
table.exports td,table.exports th{font-size:.95rem}
.export-progress{margin-top:1rem}
.export video{display:block;width:100%;max-width:40rem;max-height:32rem;background:#000;border-radius:.3rem}
a.button{display:inline-block;padding:.45rem 1rem;border-radius:.3rem;background:var(--accent);color:#fff;
  text-decoration:none}
@media (max-width:44rem){table.exports th:nth-child(4),table.exports td:nth-child(4){display:none}}
/* deliveries */
.badge{display:inline-block;padding:0 .5rem;border-radius:.8rem;border:1px solid var(--line);background:var(--tint);
  font-size:.9em;font-weight:600;white-space:nowrap}
.badge span{margin-right:.3rem}
.badge.state-dead{background:var(--danger);border-color:var(--danger);color:#fff}
.badge.state-delivered{border-color:var(--ok);color:var(--ok)}
.badge.state-retrying{border-color:#8a5a00;color:#6b4600}
table.deliveries td{overflow-wrap:anywhere}
table.deliveries tr.dead{background:#fdf0f0}
table.deliveries tr.dead td:first-child{border-left:4px solid var(--danger)}
@media (max-width:44rem){table.deliveries thead{position:absolute;left:-999px}
  table.deliveries,table.deliveries tbody,table.deliveries tr,table.deliveries td{display:block;width:100%}
  table.deliveries tr{border:1px solid var(--line);border-radius:.5rem;margin-bottom:.6rem;padding:.3rem .5rem}
  table.deliveries td{border:0;padding:.15rem 0}
  table.deliveries td::before{content:attr(data-label) ": ";font-weight:600}}
.card.delivery.dead,section.attention:has(ul.dead-deliveries){border-left:4px solid var(--danger)}
ol.attempts{list-style:none;padding:0}
.attempt.failed{border-left:4px solid var(--danger)}
.attempt h3{margin-top:0}
.attempt h4{margin:.75rem 0 .25rem;font-size:1rem}
pre.sent{background:var(--tint);border:1px solid var(--line);border-radius:.3rem;padding:.6rem;margin:0;
  white-space:pre-wrap;overflow-wrap:anywhere}
.redeliver button{margin-top:.25rem}
/* calendar, events and lists */
.calendar-forms{display:grid;grid-template-columns:minmax(0,1fr);gap:0 1rem}
@media (min-width:44rem){.calendar-forms{grid-template-columns:repeat(2,minmax(0,1fr))}}
.calendar-steps a[aria-current=page]{font-weight:700;color:var(--ink)}
ul.channel-counts{margin-bottom:1rem}
.calendar .weekdays{display:none}
.calendar ol.days{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:minmax(0,1fr);gap:.5rem}
.calendar li.pad{display:none}
.calendar li.day{background:var(--paper);border:1px solid var(--line);border-radius:.4rem;padding:.5rem .6rem;min-width:0}
.calendar li.today{border:2px solid var(--accent)}
.calendar li.day h3{font-size:.95rem;margin:0 0 .25rem}
.calendar li.day p{margin:0}
.calendar li.day ul{list-style:none;margin:0;padding:0}
.calendar li.entry{margin:.3rem 0;padding-left:.45rem;border-left:3px solid var(--accent);overflow-wrap:anywhere}
.calendar li.entry.published{border-color:var(--ok)}
.calendar li.entry .meta{display:block;font-size:.85rem;color:var(--muted)}
@media (min-width:60rem){
  .calendar .weekdays{display:grid;grid-template-columns:repeat(7,minmax(0,1fr));gap:.5rem;font-weight:600;
    color:var(--muted);margin-bottom:.25rem}
  .calendar ol.days{grid-template-columns:repeat(7,minmax(0,1fr))}
  .calendar li.pad{display:block}
  .calendar.month li.day{min-height:6rem}
}
table.stack td{overflow-wrap:anywhere}
@media (max-width:44rem){
  table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
  table.stack tr,table.stack td{display:block}
  table.stack tr{border-bottom:2px solid var(--line);padding:.35rem 0}
  table.stack td{border:0;padding:.15rem .5rem}
  table.stack td::before{content:attr(data-label) ": ";font-weight:600}
}
pre.json{background:var(--tint);border:1px solid var(--line);padding:.75rem;max-height:32rem;overflow:auto;
  white-space:pre-wrap;overflow-wrap:anywhere}
.wrap{overflow-wrap:anywhere}
.schedule input[type=datetime-local]{width:100%;padding:.5rem;border:1px solid var(--muted);border-radius:.3rem;
  font:inherit;background:var(--paper);color:var(--ink)}
.schedule textarea{font-family:ui-monospace,monospace}
.schedule [aria-invalid=true]{border:2px solid var(--danger)}
.schedule .hint{margin:.2rem 0;font-size:.9rem}
.schedule button[type=submit]{margin-top:1rem}
.field-error{color:var(--danger);font-weight:600;margin:.25rem 0;padding-left:1.2rem}
/* pipeline and jobs */
ul.stages{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,9rem),1fr));gap:.5rem;list-style:none;
  margin:0 0 .5rem;padding:0}
ul.stages li{border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:.3rem;padding:.3rem .6rem}
ul.stages li.stage-published{border-left-color:var(--ok)}
ul.stages li.stage-failed{border-left-color:var(--danger)}
ul.stages .n{font-weight:700;font-size:1.15rem}
.badge.stage-approval,.badge.stage-scheduled{border-color:#8a5a00;color:#6b4600}
.badge.stage-publishing{border-color:var(--ok);color:var(--ok)}
.job-actions h2,.job-actions h3{margin-top:0}
.job-action{border-top:1px solid var(--line);padding:.6rem 0}
.job-action p{margin:0 0 .4rem}
.job-action.update button{margin-top:.75rem}
.job-action textarea{font:inherit}
`
