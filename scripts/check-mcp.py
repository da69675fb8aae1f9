#!/usr/bin/env python3
"""Checks `replay-cli mcp` with a real MCP client: the official Python SDK (`pip install mcp`), not one written here.

It starts `replay-cli mcp` over stdio as a client configured by JSON would, in the package root with REPLAY_HOST
naming the samples' debug host, negotiates, lists the tools, calls each on a sample session, and checks each result
against the same command's --json output (run directly) or, for `report`, the page it wrote. It prints the
transcript of the `diff` call and exits non-zero with a message naming what is wrong. Needs the built `replay-cli`
and `sample-replay-host` (.build/debug).
Usage: scripts/check-mcp.py
"""
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

try:  # the SDK's error type: MCPError from version 2 on, McpError before
    from mcp import MCPError
except ImportError:
    from mcp.shared.exceptions import McpError as MCPError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, ".build/debug/replay-cli")
ENVIRONMENT = dict(os.environ, REPLAY_HOST=os.path.join(ROOT, ".build/debug/sample-replay-host"), NO_COLOR="1")
SESSION = "samples/sessions/todos-basic.jsonl"
EXPECTED_TOOLS = ["sessions", "log", "history", "show", "diff", "report"]


def fail(message):
    print(f"check-mcp: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def field(value, name, older_name):
    """A field of the SDK's result types: snake_case from version 2 on, camelCase before."""
    return getattr(value, name) if hasattr(value, name) else getattr(value, older_name)


def direct(arguments):
    """What `replay-cli ARGUMENTS --json` prints, decoded."""
    run = subprocess.run([CLI, *arguments, "--json"], cwd=ROOT, env=ENVIRONMENT, capture_output=True, text=True)
    return json.loads(run.stdout)


async def check(folder, reports):
    server = StdioServerParameters(command=CLI, args=["mcp", "--reports", reports], cwd=ROOT, env=ENVIRONMENT)
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            version = field(initialized, "protocol_version", "protocolVersion")
            print(f"check-mcp: initialized: protocol {version}, server {field(initialized, 'server_info', 'serverInfo').name}")
            tools = [tool.name for tool in (await session.list_tools()).tools]
            if tools != EXPECTED_TOOLS:
                fail(f"tools/list gave {tools}, not {EXPECTED_TOOLS}")

            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                if field(result, "is_error", "isError"):
                    fail(f"{name} {arguments} failed: {result.content}")
                structured = field(result, "structured_content", "structuredContent")
                if structured is None:
                    fail(f"{name} gave no structuredContent")
                return result, result.content[0].text, structured

            calls = {
                "sessions": ({"dir": folder}, ["sessions", "--dir", folder], "sessions"),
                "log": ({"session": SESSION, "diff": True, "from": 2, "to": 4}, ["log", SESSION, "--diff", "--from", "2", "--to", "4"], "events"),
                "history": ({"session": SESSION, "path": "todos[*].isComplete"}, ["history", SESSION, "todos[*].isComplete"], None),
                "show": ({"session": SESSION, "step": 3}, ["show", SESSION, "--step", "3"], None),
                "diff": ({"session": SESSION}, ["diff", SESSION], None),
            }
            for name, (arguments, command, member) in calls.items():
                result, text, structured = await call(name, arguments)
                expected = direct(command)
                if json.loads(text) != expected or (structured[member] if member else structured) != expected:
                    fail(f"{name} {arguments} is not what `replay-cli {' '.join(command)} --json` prints")
                if name == "diff":
                    print("check-mcp: transcript of the diff call")
                    print(f"  -> tools/call {json.dumps({'name': name, 'arguments': arguments})}")
                    print("  <- " + result.model_dump_json(exclude_none=True))
                print(f"check-mcp: ok {name}")

            _, _, structured = await call("report", {"session": SESSION})
            page = structured["file"]
            if os.path.dirname(page) != reports or not open(page, encoding="utf-8").read().startswith("<!DOCTYPE html>"):
                fail(f"report wrote no page in {reports}: {structured}")
            print(f"check-mcp: ok report ({os.path.getsize(page)} bytes)")

            try:
                await session.call_tool("show", {"session": SESSION, "step": "three"})
                fail("show with a string step was not refused")
            except MCPError as error:
                if error.error.code != -32602:
                    fail(f"show with a string step gave {error.error}, not invalid params (-32602)")
                print(f"check-mcp: refused as it should be: {error.error.message}")
            print("check-mcp: ok a mistyped argument is refused as invalid params")


def main():
    folder = tempfile.mkdtemp(prefix="skr-mcp-")
    reports = os.path.join(folder, "reports")
    try:
        shutil.copy(os.path.join(ROOT, SESSION), folder)
        asyncio.run(check(folder, reports))
    finally:
        shutil.rmtree(folder)
    print("check-mcp: all tools answered as their commands do")


if __name__ == "__main__":
    main()
