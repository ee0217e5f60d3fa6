#!/usr/bin/env python3
"""Runs `kjson encode` on every parity case and compares its bytes with the Flink oracle's.

Input: the oracle output directory (one `<line>-jdk<N>/<case>/` directory per Flink line x JDK x
case, see tests/parity/README.md). Every case of every run counts once in the summary line
`parity: N passed, M failed`; the exit status is 1 when anything failed.
"""

import argparse
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROW_KIND_COLUMN = "__row_kind"
WINDOW = 160  # bytes of context shown around the first difference of a long record


def float_spelling(jdk: int) -> str:
    """JDK <= 18 prints floats with the old FloatingDecimal; 19+ with the shortest-digits algorithm."""
    return "jdk17" if jdk <= 18 else "jdk19"


def visible(data: bytes) -> str:
    """Printable ASCII as is, every other byte as <XX>, so control bytes and UTF-8 show."""
    return "".join(chr(b) if 0x20 <= b < 0x7F else f"<{b:02X}>" for b in data)


def read_meta(path: Path) -> dict:
    meta = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            meta[key] = value
    return meta


def unescape(message: str) -> str:
    """Inverse of the oracle's escape: \\\\ -> \\, \\n -> newline, \\r -> CR."""
    out, i = [], 0
    while i < len(message):
        c = message[i]
        if c == "\\" and i + 1 < len(message):
            nxt = message[i + 1]
            out.append({"n": "\n", "r": "\r", "\\": "\\"}.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def innermost_message(error_txt: Path) -> str:
    """The deepest non-empty message of Flink's exception chain ("Class: message" per line)."""
    innermost = ""
    for line in error_txt.read_text(encoding="utf-8").splitlines():
        _, _, message = line.partition(": ")
        if message.strip():
            innermost = unescape(message)
    return innermost


def first_line(message: str) -> str:
    """What kjson must reproduce: the first line (parser messages go on with token lists)."""
    return message.strip().splitlines()[0].strip() if message.strip() else ""


def header(case_sql: Path) -> dict:
    """The case's leading `-- key: value` comment lines."""
    found = {}
    for line in case_sql.read_text(encoding="utf-8").splitlines():
        if not line.startswith("--"):
            break
        key, sep, value = line[2:].partition(":")
        if sep:
            found[key.strip()] = value.strip()
    return found


def expects_error(case_sql: Path, line: str) -> bool:
    """`-- expect: error` (every line) or `-- expect: error on 1.20 2.2` (those lines only): Flink
    must reject the case there and accept it elsewhere (the oracle only warns)."""
    words = header(case_sql).get("expect", "").split()
    if not words or words[0] != "error":
        return False
    return len(words) == 1 or (words[1] == "on" and line in words[2:])


def message_rule(case_sql: Path, line: str):
    """What kjson's stderr must contain when Flink rejects the case on LINE: (None, None) for
    Flink's own innermost message (the default), else (text, why) from the case's
    `-- message-lines: 2.2 2.3 (why the other lines differ)` and `-- message-elsewhere: TEXT`:
    on a line outside message-lines kjson must print TEXT (its own wording of the same refusal),
    so that another failure (a crash, an unreadable input) cannot pass. A malformed header is an
    error (ValueError)."""
    h = header(case_sql)
    if "message-lines" not in h:
        return None, None
    lines, _, why = h["message-lines"].partition("(")
    why = why.rstrip(")").strip()
    elsewhere = h.get("message-elsewhere", "")
    if not why or not elsewhere:
        raise ValueError("'-- message-lines:' needs a reason in parentheses and a "
                         "'-- message-elsewhere: TEXT' line (what kjson prints on the other lines)")
    if line in lines.split():
        return None, None
    return elsewhere, why


def records(data: bytes) -> list:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def window(record: bytes, at: int) -> str:
    if len(record) <= 2 * WINDOW:
        return visible(record)
    start = max(0, at - WINDOW // 2)
    end = min(len(record), at + WINDOW)
    return ("..." if start else "") + visible(record[start:end]) + ("..." if end < len(record) else "")


def diff_report(name: str, expected: bytes, actual: bytes) -> str:
    exp, act = records(expected), records(actual)
    bad = [i for i in range(max(len(exp), len(act))) if i >= len(exp) or i >= len(act) or exp[i] != act[i]]
    row = bad[0]
    e = exp[row] if row < len(exp) else None
    a = act[row] if row < len(act) else None
    lines = [f"  {name}: {len(bad)} of {len(exp)} rows differ (kjson wrote {len(act)}); first at row {row}"]
    if e is None or a is None:
        lines.append(f"    expected: {'<no record>' if e is None else visible(e)}")
        lines.append(f"    actual:   {'<no record>' if a is None else visible(a)}")
        return "\n".join(lines)
    at = next((i for i in range(min(len(e), len(a))) if e[i] != a[i]), min(len(e), len(a)))
    lines.append(f"    first difference at byte {at}")
    lines.append(f"    expected: {window(e, at)}")
    lines.append(f"    actual:   {window(a, at)}")
    return "\n".join(lines)


def run_kjson(kjson: list, ddl: Path, case_dir: Path, line: str, jdk: int, tmp: Path):
    keys, values = tmp / "keys.out", tmp / "values.out"
    for p in (keys, values):
        p.unlink(missing_ok=True)
    cmd = kjson + ["encode", "--ddl", str(ddl), "--input", str(case_dir / "input.arrow"),
           "--keys-out", str(keys), "--values-out", str(values), "--row-kind-column", ROW_KIND_COLUMN,
           "--flink-version", line, "--float-spelling", float_spelling(jdk)]
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e), keys, values, cmd
    return proc.returncode, proc.stderr.decode("utf-8", "replace"), keys, values, cmd


def check_case(kjson, cases_dir, case_dir, line, jdk, tmp, matches):
    """Returns None when the case passes, else the failure text."""
    case = case_dir.name
    meta = read_meta(case_dir / "meta.txt")
    if "outcome" not in meta:
        return "the oracle produced no verdict for this case (see the oracle log)"
    case_sql = cases_dir / f"{case}.sql"
    declared_error = expects_error(case_sql, line)
    if declared_error and meta["outcome"] != "error":
        return (f"the case declares '-- expect: error' for Flink {line} but Flink accepted it: make it "
                f"an accept case there if that is right")
    if not declared_error and meta["outcome"] == "error":
        return (f"Flink {line} rejected it ({meta.get('error_stage', '?')}: "
                f"{first_line(innermost_message(case_dir / 'error.txt'))}) but the case does not declare "
                f"'-- expect: error' for that line")
    rc, stderr, keys, values, cmd = run_kjson(kjson, case_sql, case_dir, line, jdk, tmp)
    if meta["outcome"] == "error":
        wanted = first_line(innermost_message(case_dir / "error.txt"))
        stage = meta.get("error_stage", "?")
        if rc is None or rc == 0:
            return f"Flink rejects it ({stage}: {wanted}) but kjson exited {rc}"
        try:
            elsewhere, why = message_rule(case_sql, line)
        except ValueError as e:
            return f"{case_sql.name}: {e}"
        if elsewhere is not None:
            if elsewhere not in stderr:
                return (f"on Flink {line} ({why}) kjson must fail with its own message\n"
                        f"    wanted: {elsewhere}\n    kjson:  {stderr.strip()[-600:]}")
            matches.setdefault(case, [f"(kjson's wording on {line}) " + elsewhere, 0])[1] += 1
            return None
        if wanted not in stderr:
            return (f"kjson failed as Flink did ({stage}) but its stderr lacks Flink's innermost message\n"
                    f"    flink: {wanted}\n    kjson: {stderr.strip()[-600:]}")
        matches.setdefault(case, [wanted, 0])[1] += 1
        return None
    if rc != 0:
        return f"kjson exited {rc}:\n    {stderr.strip()[-800:]}\n    command: {' '.join(cmd)}"
    problems = []
    for name, expected_path, actual_path in (("keys", case_dir / "keys.expected", keys),
                                             ("values", case_dir / "values.expected", values)):
        expected = expected_path.read_bytes()
        actual = actual_path.read_bytes() if actual_path.exists() else None
        if actual is None:
            problems.append(f"  {name}: kjson wrote no file")
        elif actual != expected:
            problems.append(diff_report(name, expected, actual))
    return "\n".join(problems) if problems else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--oracle-out", type=Path, required=True)
    ap.add_argument("--cases", type=Path, required=True)
    ap.add_argument("--kjson", type=Path, required=True)
    ap.add_argument("--runner", default="",
                    help="command prefix that runs the kjson binary, e.g. 'qemu-aarch64 -L /usr/aarch64-linux-gnu'")
    ap.add_argument("--runs", default="", help="expected runs, e.g. '1.20-jdk17 2.3-jdk25' (default: all found)")
    ap.add_argument("--only", default="", help="comma-separated case names (default: every case file)")
    ap.add_argument("--seed", default="?")
    ap.add_argument("--rows", default="?")
    args = ap.parse_args()

    kjson = shlex.split(args.runner) + [str(args.kjson)]
    runs = args.runs.split() or sorted(d.name for d in args.oracle_out.iterdir() if d.is_dir() and "-jdk" in d.name)
    only = [c for c in args.only.split(",") if c]
    cases = sorted(p.stem for p in args.cases.glob("*.sql") if not only or p.stem in only)
    passed, failed, matches = 0, 0, {}
    for unknown in sorted(set(only) - set(cases)):
        failed += 1
        print(f"FAIL {unknown}: no such case file in {args.cases}")
    with tempfile.TemporaryDirectory(prefix="kjson-parity-") as tmp:
        for run in runs:
            line, _, jdk = run.partition("-jdk")
            for case in cases:
                case_dir = args.oracle_out / run / case
                failure = check_case(kjson, args.cases, case_dir, line, int(jdk), Path(tmp), matches)
                if failure is None:
                    passed += 1
                    continue
                failed += 1
                print(f"FAIL {case} [flink {line}, jdk {jdk}, --float-spelling {float_spelling(int(jdk))}]"
                      f" seed {args.seed} rows {args.rows}\n{failure}")
    for case, (wanted, count) in sorted(matches.items()):
        print(f"error case {case}: kjson failed with Flink's message on {count} run(s): {wanted[:140]}")
    print(f"parity: {passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
