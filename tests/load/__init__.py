"""Helpers of the fault tests (tests/test_faults.py) and of the load test (tournament/loadtest.py)."""
