"""The errors gunicorn answers by itself (before the app sees a request), as problem+json.

gunicorn writes its own HTML page for a request it cannot parse: a request line over
``limit_request_line`` (414), a malformed header or request line (400), too many or too
large header fields (431), an unsupported transfer coding (501). ``install`` makes each
worker write those as RFC 9457 problems with this service's stable ``type`` URIs instead.
gunicorn has no hook for it, so its one writer of such pages, ``gunicorn.util.write_error``,
is replaced in the worker process.
"""

from __future__ import annotations

import json

from api.http.problems import PROBLEM_CONTENT_TYPE, ApiProblem, kind_for_status


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    """A whole HTTP/1.1 error response (status line, headers, problem+json body) that closes the connection."""
    problem = ApiProblem(kind_for_status(status), detail or None, status=status)
    body = json.dumps(problem.body()).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM_CONTENT_TYPE}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def install(worker=None) -> None:
    """Make this gunicorn worker process write its own errors as problems (a ``post_worker_init`` hook)."""
    from gunicorn import util  # gunicorn is there only in its worker processes, where this hook runs

    def write_problem(sock, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))

    util.write_error = write_problem
