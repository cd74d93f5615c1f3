"""What moto_with_journal.py's requests cost, for benchmarks (CHRONOPLANE_MOTO_COUNT_REQUESTS=1).

moto keeps no count of the requests it serves, and the launcher handles them one at a time
behind its journal lock, so a benchmark must be able to tell a control plane's own cost from
time spent queueing at the local EC2 endpoint. Two JSON documents are served:

* GET /chronoplane/request-counts: requests by access key, action and error code, with the
  seconds moto spent on them (lock held, journal write included) and the CPU seconds of the
  thread that handled them (which, unlike the former, a busy machine does not inflate), see
  bench/ec2-call-counter.ts;
* GET /chronoplane/lock-times: totals for the lock: how long requests waited for it and held
  it, how long the journal's write and fsync took inside it, and how many waits were long.
"""

import json
import os
import re
import threading
import time
from typing import Any, Callable

COUNT_REQUESTS_ENV = "CHRONOPLANE_MOTO_COUNT_REQUESTS"
COUNTS_PATH = "/chronoplane/request-counts"
LOCK_TIMES_PATH = "/chronoplane/lock-times"
ACCESS_KEY = re.compile(r"Credential=([^/,\s]+)/")
ERROR_CODE = re.compile(rb"<Code>([^<]+)</Code>")
SLOW_WAITS = (("over10ms", 0.010), ("over100ms", 0.100), ("over1s", 1.0))


def error_code(status: str, response: list[bytes]) -> str:
    """"" for a success, else EC2's error code (or the HTTP status when there is none)."""
    if status.startswith(("2", "3")):
        return ""
    code = ERROR_CODE.search(b"".join(response))
    return code.group(1).decode("utf-8", errors="replace") if code else status.split(" ", 1)[0]


def serve_json(document: Any, start_response: Callable[..., Any]) -> list[bytes]:
    payload = json.dumps(document).encode("utf-8")
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
    return [payload]


class RequestStats:
    """Counts and times requests; thread-safe, since requests wait for the lock on threads."""

    def __init__(self) -> None:
        self.mutex = threading.Lock()
        # (access key, action, error code) -> [count, seconds, CPU seconds]
        self.calls: dict[tuple[str, str, str], list[float]] = {}
        self.lock_totals: dict[str, float] = {
            "requests": 0,
            "acquisitions": 0,
            "waitSeconds": 0.0,
            "heldSeconds": 0.0,
            "journalWrites": 0,
            "journalSeconds": 0.0,
            **{name: 0 for name, _ in SLOW_WAITS},
        }
        self.max_wait = 0.0

    def serves(self, path: str | None) -> bool:
        return path in (COUNTS_PATH, LOCK_TIMES_PATH)

    def serve(self, path: str, start_response: Callable[..., Any]) -> list[bytes]:
        with self.mutex:
            if path == COUNTS_PATH:
                rows = [
                    {"accessKey": k, "action": a, "error": e, "count": int(n), "seconds": round(s, 6), "cpuSeconds": round(c, 6)}
                    for (k, a, e), (n, s, c) in self.calls.items()
                ]
                return serve_json({"counts": rows}, start_response)
            return serve_json({**self.lock_totals, "maxWaitSeconds": self.max_wait}, start_response)

    def record_lock(self, waited: float, held: float) -> None:
        with self.mutex:
            totals = self.lock_totals
            totals["acquisitions"] += 1
            totals["waitSeconds"] += waited
            totals["heldSeconds"] += held
            for name, limit in SLOW_WAITS:
                if waited > limit:
                    totals[name] += 1
            self.max_wait = max(self.max_wait, waited)

    def record_journal_write(self, seconds: float) -> None:
        with self.mutex:
            self.lock_totals["journalWrites"] += 1
            self.lock_totals["journalSeconds"] += seconds

    def record_request(
        self, environ: dict[str, Any], action: str | None, status: str, response: list[bytes], seconds: float, cpu_seconds: float
    ) -> None:
        key = ACCESS_KEY.search(environ.get("HTTP_AUTHORIZATION", ""))
        entry = (key.group(1) if key else "", action or "", error_code(status, response))
        with self.mutex:
            self.lock_totals["requests"] += 1
            counted = self.calls.setdefault(entry, [0, 0.0, 0.0])
            counted[0] += 1
            counted[1] += seconds
            counted[2] += cpu_seconds


class NoStats:
    """Stands in for RequestStats when nothing is measured, so the request path has no branches."""

    def serves(self, path: str | None) -> bool:
        return False

    def serve(self, path: str, start_response: Callable[..., Any]) -> list[bytes]:
        raise LookupError(f"{path} is served only with {COUNT_REQUESTS_ENV}=1")

    def record_lock(self, waited: float, held: float) -> None:
        pass

    def record_journal_write(self, seconds: float) -> None:
        pass

    def record_request(self, *args: Any) -> None:
        pass


def request_stats_from_environment() -> RequestStats | NoStats:
    return RequestStats() if os.environ.get(COUNT_REQUESTS_ENV) == "1" else NoStats()


class TimedLock:
    """A lock whose waits and holds are recorded in `stats`; used only through `with`."""

    def __init__(self, stats: RequestStats | NoStats) -> None:
        self.lock = threading.Lock()
        self.stats = stats
        self.local = threading.local()

    def __enter__(self) -> "TimedLock":
        asked = time.perf_counter()
        self.lock.acquire()
        self.local.asked, self.local.acquired = asked, time.perf_counter()
        return self

    def __exit__(self, *exc: Any) -> None:
        released = time.perf_counter()
        self.lock.release()
        self.stats.record_lock(self.local.acquired - self.local.asked, released - self.local.acquired)
