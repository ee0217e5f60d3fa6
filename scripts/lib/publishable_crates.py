#!/usr/bin/env python3
"""Reads `cargo metadata --no-deps --format-version 1` on stdin and prints, one a line, the name
of every package meant for publishing (no `publish = false`). Used by scripts/package-check.sh."""
import json
import sys

for package in json.load(sys.stdin)["packages"]:
    if package["publish"] is None:
        print(package["name"])
