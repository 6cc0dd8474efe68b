"""The ``allfives`` command line: a Typer app over ``solver``; all rendering lives here."""


def start() -> None:
    """The ``allfives`` program (``cli.main.main``).  Ctrl-C, SIGTERM or SIGHUP while its modules
    load (a fraction of a second) ends it as they do later: one line and status 130, 143 or
    129, not a traceback or a silent end (``main`` then handles SIGTERM and SIGHUP itself)."""
    import os
    import signal
    import sys

    def terminated(signum, frame) -> None:     # nothing is under way yet: nothing to close
        ended("terminated", 143)

    def hung_up(signum, frame) -> None:
        ended("hung up", 129)

    def ended(word: str, status: int) -> None:
        try:
            sys.stderr.write(f"allfives: {word}\n")
            sys.stderr.flush()
        except (OSError, ValueError):      # (the terminal gone with the hang-up)
            pass
        os._exit(status)

    signal.signal(signal.SIGTERM, terminated)
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is not None and signal.getsignal(hangup) is not signal.SIG_IGN:   # (nohup)
        signal.signal(hangup, hung_up)
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
        if end.code in (129, 130, 143):     # stopped: a Ctrl-C more must not break into the
            signal.signal(signal.SIGINT, signal.SIG_IGN)    # exit's wait for worker processes
        raise
