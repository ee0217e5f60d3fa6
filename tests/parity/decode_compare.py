#!/usr/bin/env python3
"""Runs `kjson decode` on every decode parity case and compares its rows and failing records with
the Flink decode oracle's.

Input: the oracle output directory (one `<line>-jdk<N>/<case>/` directory per Flink line x JDK x
case, see tests/parity/README.md, "Decode parity"). Per case and run:

- Flink refused the DDL (refused.txt): kjson decode must exit non-zero, and the case must
  declare `-- expect: error`;
- else `kjson decode ... --out actual.arrow --errors actual-errors.txt` must exit 0,
  `kjson diff expected.arrow actual.arrow` must exit 0 (same rows), and the records that failed
  must be the same indices in errors.txt and actual-errors.txt.

Every case of every run counts once in the summary line `decode parity: N passed, M failed`;
the exit status is 1 when anything failed (or nothing ran).
"""

import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path

TIMEOUT = 300  # seconds per kjson call


def read_meta(path: Path) -> dict:
    meta = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            meta[key] = value
    return meta


def header(case_sql: Path) -> dict:
    """The case's leading `-- key: value` comment lines."""
    h = {}
    for line in case_sql.read_text(encoding="utf-8").splitlines():
        if not line.startswith("--"):
            break
        key, _, value = line[2:].partition(":")
        h[key.strip()] = value.strip()
    return h


def expects_refusal(case_sql: Path, line: str) -> bool:
    """`-- expect: error` (every line) or `-- expect: error on 1.20 2.2` (those lines only)."""
    expect = header(case_sql).get("expect", "")
    if expect == "error":
        return True
    word, _, lines = expect.partition(" on ")
    return word == "error" and line in lines.split()


def known_differences(case_sql: Path):
    """`-- known-differences: N (reason)`: at most N records may differ, each shown; (N, reason)."""
    text = header(case_sql).get("known-differences", "")
    match = re.match(r"(\d+)\s*\((.+)\)$", text)
    return (int(match.group(1)), match.group(2)) if match else (0, "")


def differing_records(diff_output: str, expected: dict, actual: dict):
    """The records whose rows differ (from kjson diff's report) or that fail on one side only;
    None when kjson diff did not list them (e.g. different schemas)."""
    match = re.search(r"(\d+) differing records: \[([\d, ]*)\]", diff_output)
    if diff_output and not match:
        return None
    rows = {int(r) for r in match.group(2).split(", ") if r} if match else set()
    if match and int(match.group(1)) > len(rows):
        return None
    return rows | (set(expected) ^ set(actual))


def read_errors(path: Path) -> dict:
    """INDEX<TAB>message lines as {index: message}; a line without a numeric index is kept under
    its text so that a malformed file cannot compare equal to a good one."""
    errors = {}
    # Lines end at LF only: read_text() would also end them at a CR and splitlines() at the form
    # feeds and U+2028 that a message quoting a hostile record may hold.
    for line in path.read_bytes().decode("utf-8", "replace").split("\n"):
        if not line.strip():
            continue
        index, tab, message = line.partition("\t")
        if tab and index.isdigit():
            errors[int(index)] = message
        else:
            errors[f"malformed line: {line[:200]}"] = line
    return errors


def short(message: str, limit: int = 400) -> str:
    return message if len(message) <= limit else message[:limit] + f"... ({len(message)} chars)"


def run(cmd: list):
    """(exit status or None when it could not run, combined stdout+stderr text)."""
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
    except FileNotFoundError:
        return None, f"no such program: {cmd[0]}"
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    out = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    return proc.returncode, out


def unknown_command(rc, output: str) -> bool:
    """clap's answer to a subcommand or flag the binary does not have (yet)."""
    return rc == 2 and ("unrecognized subcommand" in output or "unexpected argument" in output)


def compare_errors(expected: dict, actual: dict) -> str:
    for who, errors in (("the oracle's errors.txt", expected), ("kjson's errors file", actual)):
        bad = [k for k in errors if isinstance(k, str)]
        if bad:
            return (f"  {who} has {len(bad)} line(s) that do not start with INDEX<TAB> "
                    f"(one line per failing record, newlines escaped), e.g.\n    {short(bad[0])}")
    exp, act = set(expected), set(actual)
    if exp == act:
        return None
    only_flink = sorted(exp - act, key=str)
    only_kjson = sorted(act - exp, key=str)
    lines = [f"  failing records differ: Flink {len(exp)}, kjson {len(act)}; "
             f"{len(only_flink)} only Flink fails, {len(only_kjson)} only kjson fails"]
    first = min(only_flink + only_kjson)
    lines.append(f"    first mismatch: record {first}")
    lines.append(f"    flink: {short(expected[first]) if first in expected else '<no error: decoded>'}")
    lines.append(f"    kjson: {short(actual[first]) if first in actual else '<no error: decoded>'}")
    return "\n".join(lines)


def check_case(kjson, cases_dir, case_dir, line):
    """Returns None when the case passes, else the failure text."""
    case = case_dir.name
    meta = read_meta(case_dir / "meta.txt")
    if "outcome" not in meta:
        return "the oracle produced no verdict for this case (see the oracle log)"
    case_sql = cases_dir / f"{case}.sql"
    declared_error = expects_refusal(case_sql, line)
    refused = meta["outcome"] == "refused"
    if declared_error and not refused:
        return f"the case declares '-- expect: error' but Flink {line} accepted it"
    if refused and not declared_error:
        return (f"Flink {line} refused it ({meta.get('refused_stage', '?')}: {meta.get('refused_innermost', '')}) "
                f"but the case does not declare '-- expect: error'")
    actual = case_dir / "actual.arrow"
    actual_errors = case_dir / "actual-errors.txt"
    for p in (actual, actual_errors):
        p.unlink(missing_ok=True)
    cmd = kjson + ["decode", "--ddl", str(case_sql), "--records", str(case_dir / "records.bin"),
                   "--out", str(actual), "--errors", str(actual_errors), "--flink-version", line]
    rc, output = run(cmd)
    if rc is None:
        return f"kjson decode could not run: {output}"
    if unknown_command(rc, output):
        return f"kjson has no usable 'decode' command yet:\n    {short(output.strip(), 600)}"
    if refused:
        if rc == 0:
            return f"Flink refuses the DDL ({meta.get('refused_innermost', '')}) but kjson decode exited 0"
        return None
    if rc != 0:
        return f"kjson decode exited {rc}:\n    {short(output.strip(), 800)}\n    command: {' '.join(cmd)}"
    problems = []
    diff_report = ""
    if not actual.exists():
        problems.append("  kjson decode wrote no Arrow file")
    else:
        drc, dout = run(kjson + ["diff", str(case_dir / "expected.arrow"), str(actual)])
        diff_report = dout if drc else ""
        if drc is None:
            problems.append(f"  kjson diff could not run: {dout}")
        elif unknown_command(drc, dout):
            problems.append(f"  kjson has no usable 'diff' command yet:\n    {short(dout.strip(), 600)}")
        elif drc != 0:
            problems.append(f"  rows differ (kjson diff exited {drc}; meta: rows={meta.get('rows')}):\n    "
                            + short(dout.strip(), 1500).replace("\n", "\n    "))
    if not actual_errors.exists():
        problems.append("  kjson decode wrote no errors file")
    else:
        expected_errors, kjson_errors = read_errors(case_dir / "errors.txt"), read_errors(actual_errors)
        mismatch = compare_errors(expected_errors, kjson_errors)
        if mismatch:
            problems.append(mismatch)
        allowed, reason = known_differences(case_sql)
        differing = differing_records(diff_report, expected_errors, kjson_errors) if problems else set()
        if problems and allowed and differing is not None and len(differing) <= allowed:
            print(f"KNOWN {case} [flink {line}]: {len(differing)} of at most {allowed} records differ "
                  f"({reason}): {sorted(differing)}")
            return None
    return "\n".join(problems) if problems else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle-out", type=Path, required=True)
    ap.add_argument("--cases", type=Path, required=True)
    ap.add_argument("--kjson", type=Path, required=True)
    ap.add_argument("--runner", default="", help="command prefix that runs the kjson binary")
    ap.add_argument("--runs", default="", help="expected runs, e.g. '1.20-jdk17 2.3-jdk25' (default: all found)")
    ap.add_argument("--only", default="", help="comma-separated case names (default: every case file)")
    ap.add_argument("--seed", default="?")
    ap.add_argument("--records", default="?")
    args = ap.parse_args()

    kjson = shlex.split(args.runner) + [str(args.kjson)]
    runs = args.runs.split() or sorted(d.name for d in args.oracle_out.iterdir() if d.is_dir() and "-jdk" in d.name)
    only = [c for c in args.only.split(",") if c]
    cases = sorted(p.stem for p in args.cases.glob("*.sql") if not only or p.stem in only)
    passed, failed = 0, 0
    for unknown in sorted(set(only) - set(cases)):
        failed += 1
        print(f"FAIL {unknown}: no such case file in {args.cases}")
    if not args.kjson.exists():
        print(f"decode parity: no kjson binary at {args.kjson}")
    for run_name in runs:
        line, _, jdk = run_name.partition("-jdk")
        for case in cases:
            case_dir = args.oracle_out / run_name / case
            try:
                failure = check_case(kjson, args.cases, case_dir, line)
            except Exception as e:  # a broken case directory must not hide the others
                failure = f"compare crashed: {type(e).__name__}: {e}"
            if failure is None:
                passed += 1
                continue
            failed += 1
            print(f"FAIL {case} [flink {line}, jdk {jdk}] seed {args.seed} records {args.records} ({case_dir})\n{failure}")
    print(f"decode parity: {passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
