"""The kernel a submission runs in (python -m tools.grade_kernel -f CONNECTION_FILE), started by tools/grade.py.

Before the kernel starts it limits itself: the memory its data may take (RLIMIT_DATA, which counts every
allocation, torch's included, but not the shared libraries it maps), the size of the files it may write, and
no core files. It works in the fresh temporary folder the grader made for it, which
is also its HOME. The grader may start it inside a network namespace of its own (unshare --net), where there is
no network at all; the kernel talks to the grader through Unix sockets in that folder, not TCP.

BOOK_GRADE_MEMORY_MB sets the memory limit."""

from __future__ import annotations

import os
import resource
import sys


def limit() -> None:
    memory = int(os.environ.get("BOOK_GRADE_MEMORY_MB", "2048")) * 2**20
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 2**20, 256 * 2**20))  # no file over 256 MiB
    os.environ["HOME"] = os.getcwd()
    os.environ["MPLCONFIGDIR"] = os.path.join(os.getcwd(), ".matplotlib")


if __name__ == "__main__":
    limit()
    from ipykernel import kernelapp

    sys.argv[0] = "ipykernel_launcher"
    kernelapp.launch_new_instance()
