"""Run the ``djebel`` command in this process, as a user would call it."""

from __future__ import annotations

import contextlib
import io
import sys

from djebel import cli


def run_cli(*args: str) -> tuple[int, str]:
    """``djebel ARGS`` in this process, through ``cli.main``: (exit status, output)."""
    out, argv, stdin = io.StringIO(), sys.argv, sys.stdin
    sys.argv, sys.stdin = ["djebel", *args], io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            cli.main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv, sys.stdin = argv, stdin
    return code, out.getvalue()
