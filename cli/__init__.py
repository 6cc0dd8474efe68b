"""The ``allfives`` command line: a Typer app over ``solver``; all rendering lives here."""
