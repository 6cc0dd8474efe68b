"""The ``allfives`` command line: a Typer app over ``solver``; all rendering lives here."""


def start() -> None:
    """The ``allfives`` program (``cli.main.main``).  Ctrl-C while its modules load (a fraction of a second) ends
    it as Ctrl-C does later: one line and status 130, not a traceback."""
    import sys

    try:
        from .main import main as program
    except KeyboardInterrupt:
        sys.stderr.write("allfives: interrupted\n")
        raise SystemExit(130) from None
    program()
