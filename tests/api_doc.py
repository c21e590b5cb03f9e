#!/usr/bin/env python3
"""doc/api.md from include/pcol.h: every PCOL_API function under its level and
section banner, with the comment written above it.  `api_doc.py --check`
(run by `make check`) fails when doc/api.md is not what the header gives,
naming the functions it misses or has extra; `api_doc.py` writes it."""
import re
import sys

HEADER, DOC = "include/pcol.h", "doc/api.md"


def parse(text):
    """[(kind, title)] banners and ("fn", name, comment, declaration)."""
    lines, out, comment, i = text.split("\n"), [], [], 0
    while i < len(lines):
        ln = lines[i]
        m = re.match(r"/\* =+ (.*?)\s*(\*/)?$", ln)
        if m:
            out.append(("level", m.group(1)))
            comment = []
        elif re.match(r"/\* -{5,} ", ln):
            out.append(("section", re.sub(r"^/\* -+ |\s*\*/$", "", ln).strip()))
            comment = []
        elif ln.startswith("typedef "):
            decl = [ln]
            if ln.rstrip().endswith("{"):  # a struct or enum: to its "} name;"
                while not re.match(r"\}\s*\w+;", decl[-1]) and i + 1 < len(lines):
                    i += 1
                    decl.append(lines[i])
            else:
                while not decl[-1].rstrip().endswith(";") and i + 1 < len(lines):
                    i += 1
                    decl.append(lines[i])
            name = re.findall(r"(pcol_\w+)", re.sub(r"\(\*(pcol_\w+)\).*", r"\1", decl[-1]))
            # (a typedef right above a function: the comment is the function's)
            fn_next = i + 1 < len(lines) and lines[i + 1].startswith("PCOL_API ")
            if name:
                out.append(("type", name[-1], "" if fn_next else "\n".join(comment), "\n".join(decl)))
            comment = comment if fn_next else []
            i += 1
            continue
        elif ln.startswith("#define PCOL_VERSION_MAJOR"):
            out.append(("versions", "\n".join(comment)))
            comment = []
        elif ln.startswith("PCOL_API ") and "(" in ln:
            decl = [ln]
            while not re.search(r"\)\s*;|^\s*;", decl[-1]) and i + 1 < len(lines):
                i += 1
                decl.append(lines[i])
            name = re.search(r"(pcol_\w+)\(", ln).group(1)
            out.append(("fn", name, "\n".join(comment), "\n".join(decl)))
            comment = []
            i += 1
            continue
        elif ln.startswith("/*"):
            comment = [ln]
            while "*/" not in comment[-1] and i + 1 < len(lines):
                i += 1
                comment.append(lines[i])
        elif ln.strip():
            comment = []
        i += 1
    return out


def render(items):
    fns = [x for x in items if x[0] == "fn"]
    types = [x for x in items if x[0] == "type"]
    toc, body, sec, versions = [], [], None, ""
    for it in items:
        if it[0] == "versions":
            versions = re.sub(r"^/\* ?|\s*\*/$|^ \* ?", "", it[1], flags=re.M).strip()
            versions = "\n## Versions\n\n%s\n" % versions
        elif it[0] == "type":
            _, name, comment, decl = it
            body.append("#### type %s\n\n```c\n%s\n```\n" % (name, (comment + "\n" if comment else "") + decl))
        elif it[0] == "level":
            toc.append("- **%s**" % it[1])
            body.append("\n## %s\n" % it[1])
        elif it[0] == "section":
            sec = it[1]
            toc.append("  - %s:" % sec)
            body.append("\n### %s\n" % sec)
        else:
            _, name, comment, decl = it
            toc[-1] += " `%s`" % name
            body.append("#### %s\n\n```c\n%s\n```\n" % (name, (comment + "\n" if comment else "") + decl))
    return ("# libpcol API reference\n\n"
            "Generated from include/pcol.h by tests/api_doc.py (`make check` fails when it is\n"
            "stale: run `python3 tests/api_doc.py`).  The conventions (status, errors,\n"
            "ownership, callbacks) are at the top of the header.  %d functions and %d\n"
            "types (each type under its section, as \"type NAME\", with its fields'\n"
            "comments).\n\n" % (len(fns), len(types))
            + "\n".join(toc) + "\n" + versions + "\n".join(body))


def main():
    items = parse(open(HEADER, encoding="utf-8").read())
    want = render(items)
    if "--check" not in sys.argv:
        open(DOC, "w", encoding="utf-8").write(want)
        return 0
    try:
        have = open(DOC, encoding="utf-8").read()
    except OSError:
        have = ""
    if have == want:
        return 0
    names = {x[1] for x in items if x[0] == "fn"}
    documented = set(re.findall(r"^#### (pcol_\w+)$", have, re.M))
    for n in sorted(names - documented):
        print("doc/api.md misses %s (declared PCOL_API in %s)" % (n, HEADER))
    for n in sorted(documented - names):
        print("doc/api.md names %s, which %s does not declare" % (n, HEADER))
    print("doc/api.md is stale against %s: run python3 tests/api_doc.py" % HEADER)
    return 1


if __name__ == "__main__":
    sys.exit(main())
