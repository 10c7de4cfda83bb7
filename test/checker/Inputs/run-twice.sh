#!/bin/sh
# A test suite in miniature: a shell script that runs an instrumented
# program twice, once through env(1) (an exec without a fork), and execs
# itself into a last command.
set -e
"$1" 40
env "$1" 200
exec "$1" 20
