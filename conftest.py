"""Loaded by pytest for every test and notebook under the repository (tests/conftest.py holds the rest).

The kernels pytest starts (nbval's, for the notebooks) inherit this environment. Like the executor
(tools/notebooks.py), they make every explorer compute the output of every setting of its controls
(book/chapters/_explorer_helper.py), so that nbval compares all of them with the stored ones."""

import os

os.environ["BOOK_EXPLORER_STATES"] = "all"
