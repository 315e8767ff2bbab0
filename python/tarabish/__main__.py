"""``python -m tarabish``: the same command line as ``tarabish``."""

import sys

from ._cli import main

sys.exit(main())
