"""What every test run starts from.

The tests of Ctrl-C send SIGINT to programs they start.  A run started as a background job of a
shell without job control (``bash .ci/run &`` in a script) begins with SIGINT ignored, and a
child inherits an ignored signal through ``exec``: its Ctrl-C would do nothing.  A handled
signal is reset to the default in the child instead, so the run handles SIGINT as Python does
by default, and the programs it starts begin as from a terminal.
"""

import signal

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
