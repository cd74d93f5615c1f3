"""Runs moto's server so that its state survives a restart.

moto keeps everything in memory. To get it back after `npm run down` / `up`, this
launcher journals every request that changed something and replays the journal,
in process, before it starts serving. Replaying only gives the same resource ids
(vpc-…, subnet-…) if moto draws the same random numbers in the same order, so:

* moto's random source is seeded with a fixed value at every start;
* requests are handled one at a time (a lock), so the journal's order is the
  order in which ids were drawn (moto_server itself handles requests on threads);
* request ids are taken from a separate random source, so that pure reads
  (Describe*, List*, Get*) draw nothing from moto's and can be left out of the
  journal, which keeps it short even when controllers poll.

A request is journaled when it is not a read, or when it drew from moto's random
source all the same (e.g. the first request to a region creates its default VPC).
That rule keeps replay exact even if the request-id patch below stops applying in a
future moto: the journal would just get longer.

Some of moto's EC2 lookups scan every resource of a region; they are made to cost what
EC2's do, with the same answers (moto_lookup_shortcuts.py). Without that, the local endpoint
and not the control plane is what a benchmark with 1,000 VPCs measures.

Opt-in, for benchmarks: with CHRONOPLANE_MOTO_COUNT_REQUESTS=1 in its environment it
also counts and times requests and the lock, served as JSON under /chronoplane/
(moto_request_stats.py; read by bench/ec2-call-counter.ts and bench/phase-probe.ts).

Usage: python moto_with_journal.py --host 127.0.0.1 --port 4566 --journal FILE
"""

import argparse
import base64
import io
import json
import os
import random
import sys
import time
from typing import Any, Callable, Iterable
from urllib.parse import parse_qs

from werkzeug.serving import run_simple
from werkzeug.test import Client

import moto.core.responses
import moto.utilities.aws_headers
from moto.moto_api._internal import mock_random
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)

from moto_request_stats import NoStats, RequestStats, TimedLock, request_stats_from_environment
from moto_lookup_shortcuts import install_lookup_shortcuts

# Any fixed value works; it only has to be the same at every start.
RANDOM_SEED = 20240601

READ_ACTION_PREFIXES = ("Describe", "List", "Get", "Head")

# Hop-by-hop or per-connection headers that must not be replayed as-is.
HEADERS_NOT_REPLAYED = {"content-length", "transfer-encoding", "connection"}

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def take_request_ids_from_a_separate_random_source() -> None:
    request_ids = random.Random()

    def request_id(headerdict: dict[str, Any] | None = None) -> str:
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        value = "".join(request_ids.choice(alphabet) for _ in range(52))
        if isinstance(headerdict, dict):
            headerdict["x-amzn-requestid"] = value
        return value

    moto.core.responses.gen_amzn_requestid_long = request_id  # type: ignore[assignment]
    moto.utilities.aws_headers.gen_amzn_requestid_long = request_id  # type: ignore[assignment]


def action_of(environ: dict[str, Any], body: bytes) -> str | None:
    """The API action: Action= in a query-protocol request, or X-Amz-Target's tail."""
    target = environ.get("HTTP_X_AMZ_TARGET")
    if target:
        return target.rsplit(".", 1)[-1]
    query = parse_qs(environ.get("QUERY_STRING", ""))
    if "Action" in query:
        return query["Action"][0]
    content_type = environ.get("CONTENT_TYPE", "")
    if content_type.startswith("application/x-www-form-urlencoded"):
        form = parse_qs(body.decode("utf-8", errors="replace"))
        if "Action" in form:
            return form["Action"][0]
    return None


def is_read(environ: dict[str, Any], action: str | None) -> bool:
    if action is not None:
        return action.startswith(READ_ACTION_PREFIXES)
    return environ.get("REQUEST_METHOD", "GET") in ("GET", "HEAD", "OPTIONS")


def read_body(environ: dict[str, Any]) -> bytes:
    stream = environ["wsgi.input"]
    length = environ.get("CONTENT_LENGTH")
    if length:
        return stream.read(int(length))
    if environ.get("wsgi.input_terminated"):
        return stream.read()
    return b""


class JournaledApp:
    def __init__(self, app: WsgiApp, journal_path: str, stats: RequestStats | NoStats) -> None:
        self.app = app
        self.journal_path = journal_path
        self.stats = stats
        self.lock = TimedLock(stats)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        path = environ.get("PATH_INFO")
        if self.stats.serves(path):
            return self.stats.serve(path, start_response)
        status: list[str] = []

        def start_response_noting_status(status_line: str, *args: Any) -> Any:
            status.append(status_line)
            return start_response(status_line, *args)

        body = read_body(environ)
        # moto reads the body again, so hand it a fresh stream of the same bytes.
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        action = action_of(environ, body)
        with self.lock:
            started, started_cpu = time.perf_counter(), time.thread_time()
            random_state_before = mock_random.getstate()
            response = list(self.app(environ, start_response_noting_status))
            drew_random = mock_random.getstate() != random_state_before
            if drew_random or not is_read(environ, action):
                self.append(environ, body)
            handled = (time.perf_counter() - started, time.thread_time() - started_cpu)
            self.stats.record_request(environ, action, status[0] if status else "", response, *handled)
        return response

    def append(self, environ: dict[str, Any], body: bytes) -> None:
        path = environ.get("PATH_INFO", "/")
        query = environ.get("QUERY_STRING", "")
        headers = {
            key[5:].replace("_", "-").title(): value
            for key, value in environ.items()
            if key.startswith("HTTP_") and key[5:].replace("_", "-").lower() not in HEADERS_NOT_REPLAYED
        }
        if environ.get("CONTENT_TYPE"):
            headers["Content-Type"] = environ["CONTENT_TYPE"]
        entry = {
            "method": environ.get("REQUEST_METHOD", "GET"),
            "path": path + ("?" + query if query else ""),
            "headers": headers,
            "body": base64.b64encode(body).decode("ascii"),
        }
        started = time.perf_counter()
        with open(self.journal_path, "a", encoding="utf-8") as journal:
            journal.write(json.dumps(entry) + "\n")
            journal.flush()
            os.fsync(journal.fileno())
        self.stats.record_journal_write(time.perf_counter() - started)


def replay(app: WsgiApp, journal_path: str) -> int:
    if not os.path.exists(journal_path):
        return 0
    client = Client(app)
    replayed = 0
    with open(journal_path, encoding="utf-8") as journal:
        for line in journal:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                # A line cut short by a crash mid-write: everything before it is whole.
                break
            client.open(
                entry["path"],
                method=entry["method"],
                headers=entry["headers"],
                data=base64.b64decode(entry["body"]),
            )
            replayed += 1
    return replayed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--journal", required=True)
    args = parser.parse_args()

    # moto builds some URLs (e.g. queue URLs) from these.
    os.environ.setdefault("MOTO_PORT", str(args.port))

    take_request_ids_from_a_separate_random_source()
    if not install_lookup_shortcuts():
        print("moto: lookups as moto ships them (scanning every resource)", flush=True)
    mock_random.seed(RANDOM_SEED)
    app = DomainDispatcherApplication(create_backend_app)
    replayed = replay(app, args.journal)
    print(f"moto: replayed {replayed} journaled requests from {args.journal}", flush=True)

    run_simple(
        args.host,
        args.port,
        JournaledApp(app, args.journal, request_stats_from_environment()),
        threaded=True,
        request_handler=MotoRequestHandler,
    )


if __name__ == "__main__":
    sys.exit(main())
