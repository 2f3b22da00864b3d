"""Rule-based opponents for ``benchmarks.bots``, each written on its own, apart from
``strategy/`` and from one another: they read only what their seat may see (their own cards,
every up card, the actions) and share nothing but the engine's rules and evaluators."""
