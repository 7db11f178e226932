"""`python -m qubo_workbench ARGS` (and the `qubo-workbench` script): the workbench's command line,
window included, run in this process. `inspect` starts the window this way, in a process of its
own. `--remove-after DIR` (first) removes DIR when the command ends (inspect's temporary files)."""

import shutil
import sys

from . import _native


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    remove = None
    if len(args) >= 2 and args[0] == "--remove-after":
        remove, args = args[1], args[2:]
    try:
        code = _native.main(args)
    finally:
        if remove:
            shutil.rmtree(remove, ignore_errors=True)
    raise SystemExit(code)


if __name__ == "__main__":
    main()
