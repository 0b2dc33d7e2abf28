#!/usr/bin/env bash
# Run the project's python in a network namespace of its own, with only its own loopback up.
# scripts/test.sh starts each parallel test worker through this, so the workers' tables
# (announced by mDNS on 127.0.0.1) never meet: each worker has a loopback to itself. The
# namespace goes away with the worker. SANDTABLE_PYTHON names another interpreter (scripts/test.sh
# runs the suite on each Python it finds, each from a virtualenv of its own).
ns="sandtable-test-$$"
ip netns add "$ns" || exit 1
trap 'ip netns del "$ns" 2>/dev/null' EXIT
ip netns exec "$ns" ip link set lo up
ip netns exec "$ns" "${SANDTABLE_PYTHON:-$(dirname "$0")/../.venv/bin/python}" "$@"
