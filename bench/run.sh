#!/bin/sh
# make bench: run the benchmark driver with the given binary.
exec python3 "$(dirname "$0")/run.py" "$@"
