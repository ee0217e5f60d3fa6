#!/usr/bin/env python3
"""Fails when a script or POM spells a version or JDK path that has one source of truth.

The truth: the Flink, Kafka connector, Kafka and Arrow properties in jvm/pom.xml (which the scripts
read through scripts/lib/common.sh), and the JDK paths in scripts/lib/common.sh. Checked files: every
tracked *.sh, .ci/run and pom.xml. A hit is:
  - a truth value spelled literally (2.2.1, 5.0.0-2.2, 4.2.0, 18.3.0, ...) outside jvm/pom.xml;
  - any patch version of a known Flink line (1.20.x, 2.2.x, 2.3.x), or a connector version
    N.N.N-<line>, outside jvm/pom.xml, so a stale copy (2.2.0) is found as well as a current one;
    kjson's own artifact versions (<kjson.version>-<line>) are allowed;
  - in a POM, an org.apache.flink / org.apache.kafka / org.apache.arrow dependency or a
    *flink*/*kafka*/*arrow* version property whose version is not a ${property};
  - /usr/lib/jvm outside scripts/lib/common.sh.

  scripts/lib/check_versions.py [--pending FILE]... [ROOT]
exits 1 with one line per hit when there is any; hits in a --pending file (a script of work in
progress elsewhere, named in scripts/lint.sh) are shown but not failed on.
"""
import argparse
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "{http://maven.apache.org/POM/4.0.0}"
TRUTH_POM = "jvm/pom.xml"
TRUTH_SH = "scripts/lib/common.sh"
TRUTH_NAMES = re.compile(r"^(flink(\.connector\.kafka)?(\.[0-9.]+)?|kafka|arrow)\.version$")
MANAGED_GROUPS = {"org.apache.flink", "org.apache.kafka", "org.apache.arrow"}
VERSION_PROPERTY = re.compile(r"(flink|kafka|arrow).*version", re.IGNORECASE)


def truth(root):
    props = ET.parse(root / TRUTH_POM).getroot().find(NS + "properties")
    values = {p.tag[len(NS):]: (p.text or "").strip() for p in props}
    found = {k: v for k, v in values.items() if TRUTH_NAMES.match(k)}
    lines = sorted({k[len("flink."):-len(".version")] for k in found
                    if re.match(r"^flink\.[0-9.]+\.version$", k)})
    if not lines or "kafka.version" not in found or "arrow.version" not in found:
        sys.exit(f"check_versions: {TRUTH_POM} lacks the version properties (found {sorted(found)})")
    literal = {v for v in found.values() if not v.startswith("${")}
    return literal, lines, values["kjson.version"]


def tracked(root):
    out = subprocess.run(["git", "-C", str(root), "ls-files"],
                         check=True, capture_output=True, text=True).stdout.split("\n")
    return sorted(f for f in out if f and (root / f).is_file() and
                  (f.endswith(".sh") or f == ".ci/run" or f.endswith("pom.xml")))


def pom_hits(path, text):
    hits = []
    try:
        project = ET.fromstring(text)
    except ET.ParseError as e:
        return [f"{path}: not XML ({e})"]
    for el in project.iter():
        tag = el.tag[len(NS):] if el.tag.startswith(NS) else el.tag
        if tag in ("dependency", "plugin", "parent"):
            group = el.findtext(NS + "groupId") or ""
            version = el.findtext(NS + "version")
            if group in MANAGED_GROUPS and version and "${" not in version:
                hits.append(f"{path}: {group}:{el.findtext(NS + 'artifactId')} has the literal "
                            f"version {version} (use a property of {TRUTH_POM})")
    props = project.find(NS + "properties")
    for p in (props if props is not None else []):
        name, value = p.tag[len(NS):], (p.text or "").strip()
        if VERSION_PROPERTY.search(name) and value and "${" not in value:
            hits.append(f"{path}: property <{name}> is the literal {value} (refer to {TRUTH_POM})")
    return hits


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pending", action="append", default=[])
    ap.add_argument("root", nargs="?", default=".")
    args = ap.parse_args()
    root = pathlib.Path(args.root).resolve()
    literal, lines, kjson_version = truth(root)
    line_alt = "|".join(re.escape(l) for l in lines)
    patterns = [re.compile(r"(?<![\w.])" + re.escape(v) + r"(?![\w.]*[0-9])") for v in sorted(literal)]
    patterns.append(re.compile(r"(?<![\w.-])(?:" + line_alt + r")\.[0-9]+(?![\w.]*[0-9])"))
    connector = re.compile(r"(?<![\w.])([0-9]+\.[0-9]+\.[0-9]+)-(?:" + line_alt + r")(?![\w.]*[0-9])")
    hits = []
    for rel in tracked(root):
        text = (root / rel).read_text(encoding="utf-8", errors="replace")
        if rel != TRUTH_SH and "/usr/lib/jvm" in text:
            for n, line in enumerate(text.split("\n"), 1):
                if "/usr/lib/jvm" in line:
                    hits.append(f"{rel}:{n}: a JDK path (name it in {TRUTH_SH}): {line.strip()}")
        if rel == TRUTH_POM:
            continue
        if rel.endswith("pom.xml"):
            hits += pom_hits(rel, text)
        for n, line in enumerate(text.split("\n"), 1):
            spelled = {m.group(0) for p in patterns for m in p.finditer(line)}
            spelled |= {m.group(0) for m in connector.finditer(line) if m.group(1) != kjson_version}
            for s in sorted(spelled):
                hits.append(f"{rel}:{n}: the version {s} is spelled here (read it from {TRUTH_POM}): "
                            f"{line.strip()}")
    pending = [h for h in hits if h.split(":", 1)[0] in args.pending]
    hits = [h for h in hits if h not in pending]
    for h in pending:
        print(f"pending (not failed on): {h}")
    for p in args.pending:
        if not any(h.startswith(p + ":") for h in pending):
            print(f"check_versions: {p} passes now: drop it from the pending list in scripts/lint.sh")
    for h in hits:
        print(h)
    if hits:
        print(f"check_versions: {len(hits)} literal version(s); the truth is {TRUTH_POM} "
              f"(scripts: source {TRUTH_SH})")
        return 1
    print(f"check_versions: no literal Flink/Kafka/Arrow version or JDK path outside the truth "
          f"(Flink lines {' '.join(lines)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
