"""The docstrings' examples run (numpy, host backend)."""

import doctest

import mergepath


def test_docstring_examples():
    result = doctest.testmod(mergepath, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10
    assert result.failed == 0
