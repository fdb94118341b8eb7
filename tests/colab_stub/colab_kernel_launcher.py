"""Starts the test's kernel as Colab starts its own: google.colab imported first, then ipykernel.

(Colab's kernel spec runs a module of this name; this one is the test's stand-in, see
tests/colab_stub/google/colab/__init__.py.)"""

import sys

import google.colab  # noqa: F401  (in sys.modules before any cell runs, as in Colab)

if __name__ == "__main__":
    if sys.path and sys.path[0] in ("", "."):
        del sys.path[0]  # as ipykernel_launcher does: the notebook's folder is not an import root
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()
