"""The thin Discord edge: the client, the buttons' router, the presenter that delivers each
table's outbox, and the error funnel. Only this package and ``cogs`` import ``discord``."""
