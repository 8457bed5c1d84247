"""A real service for browser tests (the Flask app under werkzeug's threaded server, real Redis and
workers), a recorder of everything it sends to each token, and headless Chromium through Selenium."""

from __future__ import annotations

import json
import shutil
import threading
from collections import defaultdict

from werkzeug.serving import make_server

from tests.processes import wait_for

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


class Recorder:
    """WSGI middleware keeping every JSON body the service sent, by the request's bearer token."""

    def __init__(self, app) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.bodies: dict[str | None, list[bytes]] = defaultdict(list)
        self.paths: list[str] = []
        #: (path, X-Api-Key or None) of every request
        self.api_keys: list[tuple[str, str | None]] = []
        self.in_flight = 0

    def __call__(self, environ, start_response):
        header = environ.get("HTTP_AUTHORIZATION", "")
        token = header.partition(" ")[2].strip() or None
        with self.lock:
            self.paths.append(environ.get("PATH_INFO", "") + "?" + environ.get("QUERY_STRING", ""))
            self.api_keys.append((environ.get("PATH_INFO", ""), environ.get("HTTP_X_API_KEY")))
            self.in_flight += 1
        chunks: list[bytes] = []
        content_type: list[str] = []

        def recording_start_response(status, headers, *args):
            content_type.extend(value for name, value in headers if name.lower() == "content-type")
            return start_response(status, headers, *args)

        try:
            for chunk in self.app(environ, recording_start_response):
                chunks.append(chunk)
                yield chunk
        finally:
            with self.lock:
                self.in_flight -= 1
                if content_type and "json" in content_type[0]:  # JSON, problem+json and NDJSON
                    self.bodies[token].append(b"".join(chunks))

    def json_documents(self, token: str | None) -> list:
        """Every JSON document (a body, or one NDJSON line) sent to this token."""
        with self.lock:
            bodies = list(self.bodies[token])
        documents = []
        for body in bodies:
            for line in body.decode("utf-8", "replace").splitlines():
                line = line.strip()
                if line.startswith(("{", "[")):
                    documents.append(json.loads(line))
        return documents


class Service:
    """The app on 127.0.0.1:<free port> in a thread, recorded."""

    def __init__(self, app) -> None:
        self.recorder = Recorder(app.wsgi_app)
        app.wsgi_app = self.recorder
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> Service:
        self.thread.start()
        return self

    def stop(self) -> None:
        # Streams left open by closed pages end at their next keep-alive line.
        wait_for(lambda: self.recorder.in_flight == 0, timeout=30)
        self.server.shutdown()
        self.thread.join(timeout=10)


def chromium(width: int = 1400, height: int = 1000):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--disable-extensions", "--no-first-run",
                     "--disable-features=BackForwardCache"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=DriverService(executable_path=CHROMEDRIVER))
