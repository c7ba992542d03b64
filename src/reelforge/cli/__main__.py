"""`python -m reelforge.cli`."""

from reelforge.cli import main

main()
