"""A warm `bosun ask`: after a cold ask, one background process per home keeps the graph and the
models loaded, so the next asks from the same environment are answered in a fraction of a
second (:mod:`agent.warm.client` forwards them, :mod:`agent.warm.process` answers)."""
