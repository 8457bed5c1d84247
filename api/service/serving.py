"""How gunicorn serves the API: a gevent worker with time limits on slow clients, and the fd limit.

``api/service/gunicorn_conf.py`` uses these. One gevent worker process holds thousands of
connections (idle live streams cost a greenlet and a socket each), so a few slow or idle
clients can no longer take every thread. The limits on slow clients:

- headers: a request's line and headers must arrive within ``keepalive`` seconds of the
  connection opening (or of the previous answer): gunicorn's own timeout around the parser;
- body: the whole body within ``BODY_SECONDS`` (``RULEHOUSE_BODY_TIMEOUT``), else 408;
- any single read or write on the socket within ``SOCKET_SECONDS`` (``RULEHOUSE_SOCKET_TIMEOUT``):
  a stream whose client stopped reading is closed rather than held forever.
"""

from __future__ import annotations

import resource
import time

from werkzeug.exceptions import RequestTimeout

from api.ground.concurrency import cooperative
from api.ground.config import setting

#: Seconds for a request's whole body to arrive.
BODY_SECONDS = float(setting("BODY_TIMEOUT"))
#: Seconds one read or write on a client's socket may block.
SOCKET_SECONDS = float(setting("SOCKET_TIMEOUT"))


def raise_fd_limit(wanted: int) -> tuple[int, int]:
    """Raise this process's soft limit on open files towards ``wanted`` (never above the hard limit);
    (soft, hard) afterwards. Children (gunicorn's workers) inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft, hard


class DeadlineBody:
    """A request body (gunicorn's ``wsgi.input``) that must be read in full within ``seconds``."""

    def __init__(self, body, request, seconds: float) -> None:
        self._body = body
        self._request = request
        self._deadline = time.monotonic() + seconds
        #: Set once the answer is sent: gunicorn then drains what is left, and a plain timeout closes quietly.
        self.answered = False

    def _call(self, method, *args):
        left = self._deadline - time.monotonic()
        if self.answered:
            if left <= 0:
                raise TimeoutError("the rest of the body did not arrive in time")
            return method(*args)
        try:
            if left <= 0:
                raise TimeoutError
            if not cooperative():
                return method(*args)  # a thread's blocking socket: its per-operation timeout bounds it
            import gevent

            with gevent.Timeout(left, TimeoutError):
                return method(*args)
        except TimeoutError:
            self._request.must_close = True  # the rest of the body never comes: no next request on it
            raise RequestTimeout("the request body did not arrive in time") from None

    def read(self, size=None):
        return self._call(self._body.read, size)

    def readline(self, size=None):
        return self._call(self._body.readline, size)

    def readlines(self, size=None):
        return self._call(self._body.readlines, size)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line


def prepare_request(worker, req) -> None:
    """gunicorn's ``pre_request`` hook: give the body its deadline before the app sees it, and close the
    connection after the answer.

    Without keep-alive each request is a new connection, taken by whichever worker process is idle
    (a busy event loop does not accept), so the load spreads over the processes; with it, a process
    would keep every client it happened to accept, however busy (bench/api.py: 42-69 actions/s with
    keep-alive against 215 for the former gthread layout on the same loaded machine). A connection
    costs little on loopback or a LAN.
    """
    req.body = DeadlineBody(req.body, req, BODY_SECONDS)
    req.must_close = True


def body_answered(worker, req, environ, resp) -> None:
    """gunicorn's ``post_request`` hook: from here on gunicorn, not the app, reads what is left of the body."""
    if isinstance(req.body, DeadlineBody):
        req.body.answered = True


try:
    from gunicorn.workers.base_async import AsyncWorker
    from gunicorn.workers.ggevent import GeventWorker
except (ImportError, RuntimeError):  # gevent not installed: the gthread layout still works
    GeventWorker = None
else:

    class TimedGeventWorker(GeventWorker):
        """gunicorn's gevent worker, with a timeout on every socket operation instead of none."""

        def handle(self, listener, client, addr):
            client.settimeout(SOCKET_SECONDS)
            AsyncWorker.handle(self, listener, client, addr)  # GeventWorker.handle would make it blocking

        def handle_request(self, listener_name, req, sock, addr):
            try:
                return super().handle_request(listener_name, req, sock, addr)
            except TimeoutError:
                # A client that stopped reading (a stalled stream): close quietly, not with a traceback.
                self.log.info("closed a connection from %s stalled for %.0f s", addr[0] if addr else "?",
                              SOCKET_SECONDS)
                raise StopIteration from None
