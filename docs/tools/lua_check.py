#!/usr/bin/env python3
"""Type-checks every Lua mod of the repository with `emmylua_check` and fails on any diagnostic.

What it checks: the repository root, each folder with a `.luarc.json` under `mods/` and
`examples/packs/`, and a new
game and a new variant made by `hexforge new` (the templates), each with its own config (the
same file the author's editor reads). Errors, warnings and hints all count: a bundled mod opens
clean in an editor.

Why a script and not `emmylua_check mods/x` alone: emmylua_check does not resolve `require`
into a library folder given as a relative path with `..` (the base mod of a variant), so each
config is copied with its library paths made absolute first.

Usage: docs/tools/lua_check.py [path/to/hexforge]   (default: target/debug/hexforge)
Needs `emmylua_check` on PATH (`cargo install --locked emmylua_check`).
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def folders():
    """Every mod folder with a language-server config, sorted."""
    out = [ROOT]  # the repository opened as a whole (its config leaves the mods to their own)
    for parent in ("mods", os.path.join("examples", "packs")):
        base = os.path.join(ROOT, parent)
        for name in sorted(os.listdir(base)):
            d = os.path.join(base, name)
            if os.path.isfile(os.path.join(d, ".luarc.json")):
                out.append(d)
    return out


def check(folder, scratch):
    """Runs emmylua_check on `folder` with its config made absolute; returns (ok, output)."""
    with open(os.path.join(folder, ".luarc.json"), encoding="utf-8") as f:
        config = json.load(f)
    libraries = config.get("workspace.library", [])
    command = ["emmylua_check", folder]
    if any(".." in lib for lib in libraries):
        # Other relative paths (ignoreDir) are left as they are: only libraries reach out.
        config["workspace.library"] = [os.path.normpath(os.path.join(folder, lib)) for lib in libraries]
        path = os.path.join(scratch, "luarc-%d.json" % len(os.listdir(scratch)))
        with open(path, "w", encoding="utf-8") as f:
            json.dump(config, f)
        command = ["emmylua_check", "-c", path, folder]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    text = run.stdout + run.stderr
    return run.returncode == 0 and "No issues found" in text, text


def main():
    hexforge = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "hexforge"))
    failed = []
    with tempfile.TemporaryDirectory() as scratch:
        made = os.path.join(scratch, "new")
        os.makedirs(made)
        for args in (["new-game"], ["new-variant", "--extends", os.path.join(ROOT, "mods", "tutorial")]):
            subprocess.run([hexforge, "new", *args, "--in", made], check=True, capture_output=True)
        targets = folders() + [os.path.join(made, "new-game"), os.path.join(made, "new-variant")]
        for folder in targets:
            ok, text = check(folder, scratch)
            shown = os.path.relpath(folder, ROOT) if folder.startswith(ROOT) else "hexforge new: " + os.path.basename(folder)
            print(("ok   " if ok else "FAIL ") + shown, flush=True)
            if not ok:
                failed.append(shown)
                print(text)
    print("%d checked, %d with diagnostics" % (len(targets), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
