#!/usr/bin/env python3
"""Command tools over the git repository that contains this file (stdlib only).

Usage: python3 repo_tools.py TOOL   (TOOL is git.log, git.show, fs.list or fs.read)

Protocol (codemode command tools): the input is one JSON value on stdin; the answer is one JSON
value on stdout; on failure the message goes to stderr and the exit status is 1.

Every path is relative to the repository root and must stay inside it: absolute paths, paths that
escape through `..` or symlinks, and anything inside `.git` are refused.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
MAX_READ = 1024 * 1024


class ToolError(Exception):
    """A failure whose message the program sees."""


def repo_root():
    """The nearest directory above this script that holds `.git` (a directory, or a file in a
    worktree); `git rev-parse` as a fallback."""
    d = HERE
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return os.path.realpath(d)
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    try:
        out = subprocess.run(
            ["git", "-C", HERE, "rev-parse", "--show-toplevel"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as e:
        raise ToolError(f"cannot find the git repository containing {HERE}: {e}")
    return os.path.realpath(out)


ROOT = None


def git(*args):
    proc = subprocess.run(
        ["git", "-C", ROOT, "-c", "core.quotePath=false", *args],
        capture_output=True, text=True, errors="replace",
    )
    if proc.returncode != 0:
        raise ToolError(f"git {args[0]} failed: {proc.stderr.strip()}")
    return proc.stdout


def confine(path):
    """Return (absolute, relative) for a repository path, refusing anything outside the root."""
    if not isinstance(path, str):
        raise ToolError("path must be a string relative to the repository root")
    if path in ("", "."):
        return ROOT, "."
    if os.path.isabs(path):
        raise ToolError(f"path '{path}' is absolute; give a path relative to the repository root")
    full = os.path.realpath(os.path.join(ROOT, path))
    if os.path.commonpath([ROOT, full]) != ROOT:
        raise ToolError(f"path '{path}' is outside the repository; give a path inside it")
    rel = os.path.relpath(full, ROOT)
    if rel == ".git" or rel.startswith(".git" + os.sep):
        raise ToolError(f"path '{path}' is inside .git, which these tools do not expose")
    return full, rel


def git_log(inp):
    limit = inp.get("limit", 20)
    args = ["log", f"-n{limit}", "--name-only",
            "--format=%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f%s"]
    if inp.get("author"):
        args.append(f"--author={inp['author']}")
    if inp.get("path") is not None:
        _, rel = confine(inp["path"])
        args += ["--", rel]
    commits = []
    for record in git(*args).split("\x1e")[1:]:
        lines = record.split("\n")
        h, author, email, date, subject = lines[0].split("\x1f", 4)
        files = [line for line in lines[1:] if line.strip()]
        commits.append({"hash": h, "author": author, "email": email, "date": date,
                        "subject": subject, "files": files})
    return commits


def git_show(inp):
    rev = inp["rev"]
    if rev.startswith("-"):
        raise ToolError(f"rev '{rev}' must be a commit hash or name, not an option")
    out = git("show", "--numstat", "--no-renames",
              "--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1f%b%x1e", rev, "--")
    head, _, numstat = out.partition("\x1e")
    h, author, email, date, subject, body = head.split("\x1f", 5)
    files = []
    for line in numstat.splitlines():
        if not line.strip():
            continue
        added, deleted, path = line.split("\t", 2)
        binary = added == "-"
        files.append({"path": path, "added": 0 if binary else int(added),
                      "deleted": 0 if binary else int(deleted), "binary": binary})
    return {"hash": h, "author": author, "email": email, "date": date, "subject": subject,
            "body": body.strip(), "files": files}


def ignored_dirs():
    out = git("ls-files", "--others", "--ignored", "--exclude-standard", "--directory")
    return {line.rstrip("/") for line in out.splitlines() if line.endswith("/")}


def fs_list(inp):
    full, rel = confine(inp.get("path", "."))
    if not os.path.isdir(full):
        raise ToolError(f"'{rel}' is not a directory")
    recursive = inp.get("recursive", False)
    max_entries = inp.get("max_entries", 1000)
    skip = ignored_dirs() if recursive else set()
    entries = []
    truncated = False

    def entry(abs_path, name):
        r = os.path.relpath(abs_path, ROOT)
        if os.path.islink(abs_path):
            kind, size = "symlink", 0
        elif os.path.isdir(abs_path):
            kind, size = "dir", 0
        else:
            kind, size = "file", os.path.getsize(abs_path)
        return {"name": name, "path": r, "type": kind, "size": size}

    if not recursive:
        for name in sorted(os.listdir(full)):
            if rel == "." and name == ".git":
                continue
            if len(entries) >= max_entries:
                truncated = True
                break
            entries.append(entry(os.path.join(full, name), name))
    else:
        for dirpath, dirnames, filenames in os.walk(full):
            dirnames[:] = sorted(
                d for d in dirnames
                if d != ".git" and os.path.relpath(os.path.join(dirpath, d), ROOT) not in skip
            )
            for name in sorted(filenames):
                if len(entries) >= max_entries:
                    truncated = True
                    break
                entries.append(entry(os.path.join(dirpath, name), name))
            if truncated:
                break
    return {"path": rel, "entries": entries, "truncated": truncated}


def fs_read(inp):
    full, rel = confine(inp["path"])
    if not os.path.isfile(full):
        raise ToolError(f"'{rel}' is not a file; use fs.list to see what exists")
    max_bytes = min(inp.get("max_bytes", 65536), MAX_READ)
    size = os.path.getsize(full)
    with open(full, "rb") as f:
        data = f.read(max_bytes)
    if b"\0" in data:
        raise ToolError(f"'{rel}' is a binary file; only text files can be read")
    text = data.decode("utf-8", errors="replace")
    return {"path": rel, "size": size, "text": text, "truncated": size > len(data)}


TOOLS = {"git.log": git_log, "git.show": git_show, "fs.list": fs_list, "fs.read": fs_read}


def main():
    global ROOT
    if len(sys.argv) != 2 or sys.argv[1] not in TOOLS:
        print(f"usage: repo_tools.py {{{'|'.join(TOOLS)}}}", file=sys.stderr)
        return 2
    try:
        inp = json.load(sys.stdin)
        if not isinstance(inp, dict):
            raise ToolError("the input must be a JSON object")
        ROOT = repo_root()
        result = TOOLS[sys.argv[1]](inp)
    except ToolError as e:
        print(str(e), file=sys.stderr)
        return 1
    except json.JSONDecodeError as e:
        print(f"input is not valid JSON: {e}", file=sys.stderr)
        return 1
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
