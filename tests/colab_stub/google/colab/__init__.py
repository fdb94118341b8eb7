"""A stand-in for Colab's google.colab package, for the Colab-faithful test (tests/colab_harness.py).

In Colab the kernel starts with google.colab already imported, and the notebooks' set-up cell asks
`"google.colab" in sys.modules` to decide whether to install what Colab lacks. This stub makes that
question answer yes. It offers none of Colab's APIs (drive, files, output, ...): a notebook that calls
one fails the test with an AttributeError or ImportError, and this stub must then learn that API."""

IS_TEST_STUB = True
