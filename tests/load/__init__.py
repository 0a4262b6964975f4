"""The load test (``python -m tests.load``) and the helpers the fault tests (``tests/system/test_faults.py``) share.

``stack`` (environment, processes, database and Redis of a run), ``phases`` (setup and check inside the
load environment, run as subprocesses), ``tablets`` (the simulated tablets and arbiter over HTTP),
``report`` (figures and targets), ``fault_worker`` (a Celery worker with a slow solver).
"""
