#!/usr/bin/env python3
"""Extracts entries of a zip (a jar) into a folder and prints each extracted name.

  zip_extract.py ZIP OUT --under PREFIX --suffix .so   entries under PREFIX/ whose name ends so
  zip_extract.py ZIP OUT --elf                         entries that are ELF files (by their magic)

Used by scripts/dist-test.sh (the native libraries a jar carries) and scripts/glibc-check.sh
(every ELF file inside a jar or zip).
"""
import argparse
import zipfile

parser = argparse.ArgumentParser()
parser.add_argument("zip")
parser.add_argument("out")
parser.add_argument("--under", default="")
parser.add_argument("--suffix", default="")
parser.add_argument("--elf", action="store_true")
args = parser.parse_args()

with zipfile.ZipFile(args.zip) as z:
    for info in z.infolist():
        name = info.filename
        if info.is_dir() or not name.endswith(args.suffix):
            continue
        if args.under and not name.startswith(args.under + "/"):
            continue
        if args.elf:
            with z.open(info) as f:
                if f.read(4) != b"\x7fELF":
                    continue
        z.extract(info, args.out)
        print(name)
