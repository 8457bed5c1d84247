"""``rulehouse-mcp``: the MCP server over stdio (a local agent) or streamable HTTP (``--http``)."""

from __future__ import annotations

import argparse
import os
import sys

MISSING = ('rulehouse-mcp needs the MCP extra of the SDK: pip install "rulehouse-sdk[mcp]" '
           "(in a checkout: pip install -e \"./sdk[mcp]\")")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rulehouse-mcp", description=__doc__)
    parser.add_argument("--url", default=os.environ.get("RULEHOUSE_URL", "http://127.0.0.1:8000"),
                        help="the Rulehouse service (default: $RULEHOUSE_URL or http://127.0.0.1:8000)")
    parser.add_argument("--api-key", default=os.environ.get("RULEHOUSE_API_KEY"),
                        help="stdio: the app key sent with every request (default: $RULEHOUSE_API_KEY)")
    parser.add_argument("--http", action="store_true",
                        help="serve streamable HTTP (each session's app key: its X-Api-Key header)")
    parser.add_argument("--host", default="127.0.0.1", help="--http: the address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="--http: the port to listen on")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    try:
        from rulehouse_sdk.mcp.server import build_server
    except ImportError as missing:
        if missing.name and missing.name.split(".")[0] in ("mcp", "pydantic", "starlette", "uvicorn", "anyio"):
            sys.exit(MISSING)
        raise
    if args.http:
        server = build_server(args.url, from_headers=True)
        print(f"rulehouse-mcp: streamable HTTP at http://{args.host}:{args.port}/mcp for {args.url}",
              file=sys.stderr, flush=True)
        server.run("streamable-http", host=args.host, port=args.port)
    else:
        build_server(args.url, api_key=args.api_key).run("stdio")


if __name__ == "__main__":
    main()
