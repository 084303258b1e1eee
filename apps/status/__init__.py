"""The network's status page, served as Atlassian Statuspage's public API v2.

Authored in the Django admin; the eight GET routes need no login. Decisions:

- Routes live under the `STATUS_API_PREFIX` setting (default "api/v2/"); unknown paths
  fall through to the project's JSON 404. Answers carry `Cache-Control: public, max-age=10`.
- Ids are 12 random lowercase base-36 characters; timestamps render with milliseconds in the
  page's time zone (`2025-03-04T15:21:07.512Z`); "now" is the service clock.
- One page; `migrate` creates it when there is none (`default_page`), named and linked by
  `STATUS_PAGE_NAME` and `STATUS_PAGE_URL`, with a component per live check.
- Each process serves the page from a snapshot in memory (`snapshots`), read again through
  django-cachalot when an edit changes the status tables' stamps in the cache all processes
  share (`caching`), so an edit shows at once; its live checks' reading is taken again when
  older than `STATUS_SNAPSHOT_MAX_AGE` (5 s). A warm request reads no database, and while the
  database is unreachable the routes answer from the last snapshot with the live components
  in `major_outage` (before any read: the default page, its live components down).
- A component's status is set by hand or by a live check of this service
  (`live_checks`): mirror freshness, degraded after `STATUS_FRESHNESS_DEGRADED_AFTER` (60 s)
  and down after `STATUS_FRESHNESS_OUTAGE_AFTER` (300 s) without a new block, or database
  reachability. A group shows its worst component.
- The rollup (`rollup`) keeps the indicator at `none` under maintenance. An incident's impact
  left empty is derived from the worst status any of its updates gave a component.
- `shortlink` leads to the event on the page's own URL (`<page url>/incidents/<id>`), where
  Statuspage's stspg.io links lead; this service serves that page (`pages`), so the links of
  the default page, whose URL is this service's, resolve.
- Resolving an incident or completing a maintenance returns the components it affected to
  operational (`services`).
- Seed the demo's page (the Aurora demo network) with `manage.py seedstatus`.
"""
