"""Fake HTTP servers on 127.0.0.1 that speak just enough of the providers' APIs for tests."""
