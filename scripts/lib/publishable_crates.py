#!/usr/bin/env python3
"""Reads `cargo metadata --no-deps --format-version 1` on stdin and prints, one a line, the name
and version of every package meant for publishing (no `publish = false`), then the target
directory on a line of its own, prefixed with `target `. Used by scripts/package-check.sh."""
import json
import sys

metadata = json.load(sys.stdin)
for package in metadata["packages"]:
    if package["publish"] is None:
        print(package["name"], package["version"])
print("target", metadata["target_directory"])
