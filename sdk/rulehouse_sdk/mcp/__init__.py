"""An MCP server for AI agents, over Rulehouse's public HTTP API (``pip install "rulehouse-sdk[mcp]"``).

``rulehouse-mcp --url URL`` serves it over stdio; ``--http`` over streamable HTTP. See docs/agents.md.
Importing this package needs nothing beyond the SDK: ``rulehouse_sdk.mcp.server`` needs the extra.
"""
