"""Times the request lock of stack/moto_with_journal.py, for the benchmark only.

That launcher handles one request at a time behind one lock (so that its journal replays
exactly). A benchmark of our wake-ups must not be measuring that queue, so the benchmark puts
this directory on moto's PYTHONPATH (bench/phase-probe.ts); Python imports sitecustomize at
start-up, before the launcher, and this module then wraps the launcher's app as it is handed to
werkzeug: the lock is timed (waiting for it, holding it, and the journal write with its fsync
inside it), and GET /chronoplane/lock-times serves the totals as JSON. It does nothing unless
CHRONOPLANE_MOTO_COUNT_REQUESTS=1, the flag that turns on the launcher's request counter.

It lives here rather than in the launcher so that nothing outside the benchmark changes.
"""

import json
import os
import threading
import time
from typing import Any, Callable

LOCK_TIMES_PATH = "/chronoplane/lock-times"
SLOW_WAITS = (("over10ms", 0.010), ("over100ms", 0.100), ("over1s", 1.0))


class TimedLock:
    """Wraps the launcher's lock; `with` is the only way the launcher uses it."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock
        self.stats_lock = threading.Lock()
        self.acquired_at = 0.0
        self.totals: dict[str, float] = {
            "requests": 0,
            "requestSeconds": 0.0,
            "acquisitions": 0,
            "waitSeconds": 0.0,
            "heldSeconds": 0.0,
            "journalWrites": 0,
            "journalSeconds": 0.0,
            **{name: 0 for name, _ in SLOW_WAITS},
        }
        self.max_wait = 0.0

    def add(self, **amounts: float) -> None:
        with self.stats_lock:
            for name, amount in amounts.items():
                self.totals[name] += amount

    def __enter__(self) -> "TimedLock":
        asked = time.perf_counter()
        self.lock.acquire()
        self.acquired_at = time.perf_counter()
        waited = self.acquired_at - asked
        self.add(acquisitions=1, waitSeconds=waited, **{name: 1 for name, limit in SLOW_WAITS if waited > limit})
        self.max_wait = max(self.max_wait, waited)
        return self

    def __exit__(self, *exc: Any) -> bool:
        held = time.perf_counter() - self.acquired_at
        self.lock.release()
        self.add(heldSeconds=held)
        return False

    def timed_journal(self, append: Callable[..., None]) -> Callable[..., None]:
        def append_timed(*args: Any) -> None:
            started = time.perf_counter()
            append(*args)
            self.add(journalWrites=1, journalSeconds=time.perf_counter() - started)

        return append_timed

    def snapshot(self) -> dict[str, float]:
        with self.stats_lock:
            return {**self.totals, "maxWaitSeconds": self.max_wait}


class LockTimesEndpoint:
    """The launcher's app, timed per request, plus GET /chronoplane/lock-times."""

    def __init__(self, app: Callable[..., Any], timed_lock: TimedLock) -> None:
        self.app = app
        self.timed_lock = timed_lock

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO")
        if path == LOCK_TIMES_PATH:
            payload = json.dumps(self.timed_lock.snapshot()).encode("utf-8")
            start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
            return [payload]
        started = time.perf_counter()
        try:
            return self.app(environ, start_response)
        finally:
            if not str(path).startswith("/chronoplane/"):
                self.timed_lock.add(requests=1, requestSeconds=time.perf_counter() - started)


def install() -> None:
    import werkzeug.serving

    run_simple = werkzeug.serving.run_simple

    def run_simple_with_timed_lock(hostname: str, port: int, application: Any, *args: Any, **kwargs: Any) -> Any:
        # Only the launcher's app (it has the lock and the journal); anything else runs as it is.
        if hasattr(application, "lock") and hasattr(application, "append"):
            timed_lock = TimedLock(application.lock)
            application.lock = timed_lock
            application.append = timed_lock.timed_journal(application.append)
            application = LockTimesEndpoint(application, timed_lock)
            print("moto: timing the request lock (bench/moto-probe)", flush=True)
        return run_simple(hostname, port, application, *args, **kwargs)

    # The launcher imports run_simple by name after this runs, so it gets the wrapper.
    werkzeug.serving.run_simple = run_simple_with_timed_lock


if os.environ.get("CHRONOPLANE_MOTO_COUNT_REQUESTS") == "1":
    install()
