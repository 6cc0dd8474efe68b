# The double-dummy engine (being written).
def engine_version():
    return 0
