"""The table as a Discord Activity: the second face of the core, beside the Discord one
(``bot.edge``). A web server (``server``) serves the page Discord opens in an iframe, learns from
Discord who is at it (``identity``), and pushes the table's views over a WebSocket
(``page_socket``, ``wire``), taking the page's actions through the same single entries into the
core as a click. docs/activity.md describes the protocol."""
