"""The ``allfives`` command line: a Typer app over ``solver``; all rendering lives here."""


def start() -> None:
    """The ``allfives`` program (``cli.main.main``).  Ctrl-C or SIGTERM while its modules load
    (a fraction of a second) ends it as they do later: one line and status 130 or 143, not a
    traceback or a silent end (``main`` then handles SIGTERM itself)."""
    import os
    import signal
    import sys

    def terminated(signum, frame) -> None:     # nothing is under way yet: nothing to close
        sys.stderr.write("allfives: terminated\n")
        sys.stderr.flush()
        os._exit(143)

    signal.signal(signal.SIGTERM, terminated)
    try:
        from .main import main as program
    except KeyboardInterrupt:     # (on a terminal over the ^C it echoed, as cli.errors says)
        line_start = "" if not sys.stderr.isatty() else \
            "\r" if os.environ.get("TERM") == "dumb" else "\r\x1b[K"
        sys.stderr.write(line_start + "allfives: interrupted\n")
        raise SystemExit(130) from None
    try:
        program()
    except SystemExit as end:
        if end.code in (130, 143):  # stopped: a Ctrl-C more must not break into the exit's
            signal.signal(signal.SIGINT, signal.SIG_IGN)    # wait for worker processes
        raise
